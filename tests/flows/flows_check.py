"""What the flows' Python tests share: an optional module that is missing skips the test (exit 77, which
ctest reports as skipped) but fails it under CI=true, and failed checks are gathered and reported at the
end, so that one run shows them all."""
import importlib
import os
import sys


def require(module, test, package):
    """The module, or exit: 77 (skipped), or 1 under CI=true, naming the Debian package."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI") == "true":
            sys.exit(f"{test}: CI=true and {package} is missing")
        print(f"{test}: {package} missing (scripts/setup.sh installs it): skipped")
        sys.exit(77)


class Checks:
    def __init__(self, test):
        self.test = test
        self.failures = []

    def __call__(self, cond, what):
        if not cond:
            self.failures.append(what)

    def finish(self, summary):
        """Exit 1 listing the failures, or print the summary."""
        if self.failures:
            for f in self.failures:
                print("FAIL:", f)
            sys.exit(1)
        print(f"{self.test}: {summary}")


def script_module(src, name):
    """scripts/NAME.py of the source tree SRC, loaded as a module (its functions called one by one)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, f"{src}/scripts/{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fresh_dir(path):
    """PATH, emptied (a test's scratch directory)."""
    import shutil

    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path
