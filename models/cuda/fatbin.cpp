// Reading PTX out of registered binaries (fatbin.hpp has the layouts).
#include "fatbin.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace numagpu::cuda {
namespace {

constexpr std::size_t kContainerHeaderBytes = 16;
constexpr std::size_t kEntryHeaderMinBytes = 64;
constexpr std::uint16_t kKindPtx = 1;
constexpr std::uint64_t kFlagZstd = 0x8000;  // CUDA 13
constexpr std::uint64_t kFlagLz4 = 0x2000;   // CUDA 11 and 12 (nvcc --compress / default for large binaries)

template <class T>
T read_le(const std::uint8_t* p) {
  T v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    v |= static_cast<T>(static_cast<T>(p[i]) << (8 * i));
  return v;
}

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The text up to its first NUL (payloads are padded with zeros).
std::string text_of(const char* p, std::size_t bytes) {
  const void* nul = std::memchr(p, '\0', bytes);
  return std::string(p, nul ? static_cast<const char*>(nul) - p : bytes);
}

std::string entry_name(std::size_t index, unsigned arch) {
  return "fatbinary entry " + std::to_string(index) + " (sm_" + std::to_string(arch) + ")";
}

std::string decompress_zstd(const std::uint8_t* data, std::size_t stored, std::uint64_t expected,
                            const std::string& where) {
  unsigned long long frame = ZSTD_getFrameContentSize(data, stored);
  if (frame == ZSTD_CONTENTSIZE_ERROR)
    throw FatbinError(where + ": flags say zstd, but the payload is no zstd frame (it starts " +
                      hex(stored >= 4 ? read_le<std::uint32_t>(data) : 0) + ", expected 0xfd2fb528)");
  if (frame != ZSTD_CONTENTSIZE_UNKNOWN && expected != 0 && frame != expected)
    throw FatbinError(where + ": the zstd frame holds " + std::to_string(frame) +
                      " bytes, expected the entry's " + std::to_string(expected));
  const std::size_t bytes = frame != ZSTD_CONTENTSIZE_UNKNOWN ? frame : expected;
  // Text compresses a few times, never a thousandfold: a larger claim is damage, not a module to allocate.
  const std::size_t most = std::max<std::size_t>(std::size_t(1) << 20, std::size_t(stored) * 1024);
  if (bytes == 0 || bytes > most)
    throw FatbinError(where + ": uncompressed size " + std::to_string(bytes) + " for " +
                      std::to_string(stored) + " stored bytes, expected 1 .. " + std::to_string(most));
  std::string out(bytes, '\0');
  std::size_t got = ZSTD_decompress(out.data(), out.size(), data, stored);
  if (ZSTD_isError(got)) throw FatbinError(where + ": zstd: " + ZSTD_getErrorName(got));
  out.resize(got);
  return text_of(out.data(), out.size());
}

}  // namespace

std::vector<PtxImage> ptx_from_fatbin_container(const std::uint8_t* data, std::size_t available) {
  if (available < kContainerHeaderBytes)
    throw FatbinError("fatbinary container: " + std::to_string(available) + " bytes, expected at least a " +
                      std::to_string(kContainerHeaderBytes) + "-byte header");
  const std::uint32_t magic = read_le<std::uint32_t>(data);
  if (magic != kFatbinContainerMagic)
    throw FatbinError("fatbinary container: magic " + hex(magic) + ", expected " +
                      hex(kFatbinContainerMagic));
  const std::uint16_t header_bytes = read_le<std::uint16_t>(data + 6);
  const std::uint64_t body_bytes = read_le<std::uint64_t>(data + 8);
  if (header_bytes < kContainerHeaderBytes || header_bytes + body_bytes > available)
    throw FatbinError("fatbinary container: header " + std::to_string(header_bytes) + " + entries " +
                      std::to_string(body_bytes) + " bytes, expected at most " + std::to_string(available));

  std::vector<PtxImage> images;
  std::size_t offset = header_bytes, end = header_bytes + body_bytes, index = 0;
  unsigned cubin_only_arch = 0;
  while (offset < end) {
    const std::uint8_t* e = data + offset;
    if (end - offset < kEntryHeaderMinBytes)
      throw FatbinError("fatbinary entry " + std::to_string(index) + ": " + std::to_string(end - offset) +
                        " bytes left, expected a header of at least " + std::to_string(kEntryHeaderMinBytes));
    const std::uint16_t kind = read_le<std::uint16_t>(e);
    const std::uint32_t entry_header = read_le<std::uint32_t>(e + 4);
    const std::uint64_t payload = read_le<std::uint64_t>(e + 8);
    const std::uint32_t stored = read_le<std::uint32_t>(e + 16);
    const unsigned arch = read_le<std::uint32_t>(e + 28);
    const std::uint64_t flags = read_le<std::uint64_t>(e + 40);
    const std::uint64_t uncompressed = read_le<std::uint64_t>(e + 56);
    const std::string where = entry_name(index, arch);
    if (entry_header < kEntryHeaderMinBytes || entry_header > end - offset ||
        payload > end - offset - entry_header || stored > payload)
      throw FatbinError(where + ": header " + std::to_string(entry_header) + " bytes, payload " +
                        std::to_string(payload) + " (stored " + std::to_string(stored) +
                        "), expected both inside the container's " + std::to_string(end - offset) +
                        " remaining bytes");
    const std::uint8_t* body = e + entry_header;
    const std::size_t size = stored != 0 ? stored : payload;
    if (kind == kKindPtx) {
      PtxImage image;
      image.arch = arch;
      if (flags & kFlagZstd)
        image.text = decompress_zstd(body, size, uncompressed, where);
      else if (flags & kFlagLz4)
        throw FatbinError(
            where + ": LZ4-compressed PTX (flags " + hex(flags) +
            ", CUDA 11/12's compression) is not supported: rebuild with nvcc -no-compress or with CUDA 13");
      else
        image.text = text_of(reinterpret_cast<const char*>(body), size);
      images.push_back(std::move(image));
    } else if (cubin_only_arch == 0) {
      cubin_only_arch = arch;
    }
    offset += entry_header + payload;
    ++index;
  }
  if (images.empty())
    throw FatbinError("fatbinary container: " + std::to_string(index) + " entries, no PTX" +
                      (cubin_only_arch ? " (cubin for sm_" + std::to_string(cubin_only_arch) + ")" : "") +
                      ", expected PTX: build with nvcc -arch=compute_75 -code=compute_75");
  return images;
}

std::vector<PtxImage> ptx_from_registered_binary(const void* wrapper) {
  if (!wrapper)
    throw FatbinError("__cudaRegisterFatBinary: a null wrapper, expected {magic 0x466243b1, ...}");
  const auto* w = static_cast<const std::uint8_t*>(wrapper);
  const std::uint32_t magic = read_le<std::uint32_t>(w);
  if (magic != kFatbinWrapperMagic)
    throw FatbinError("__cudaRegisterFatBinary: wrapper magic " + hex(magic) + ", expected " +
                      hex(kFatbinWrapperMagic));
  const void* data;
  std::memcpy(&data, w + 8, sizeof data);
  if (!data) throw FatbinError("__cudaRegisterFatBinary: the wrapper's data pointer is null");
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  if (read_le<std::uint32_t>(bytes) == kFatbinContainerMagic) {
    // The container's own header bounds it (the program's memory: read as far as it says).
    const std::size_t size = read_le<std::uint16_t>(bytes + 6) + read_le<std::uint64_t>(bytes + 8);
    return ptx_from_fatbin_container(bytes, size);
  }
  // clang: the PTX text. Anything else starts with a byte no PTX module starts with.
  const char* text = static_cast<const char*>(data);
  const unsigned char first = static_cast<unsigned char>(text[0]);
  if (!(first == '/' || first == '.' || first == '\n' || first == '\r' || first == '\t' || first == ' '))
    throw FatbinError("__cudaRegisterFatBinary: data starts " + hex(read_le<std::uint32_t>(bytes)) +
                      ", expected a fatbinary container (magic " + hex(kFatbinContainerMagic) +
                      ") or PTX text");
  return {PtxImage{text, 0}};
}

}  // namespace numagpu::cuda
