// A fixture of scripts/check_layers.py's own test: the upper folder, which low/ must not include.
#pragma once
