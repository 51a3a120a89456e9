// other/bitcoin (application): a SHA-256d Bitcoin miner's nonce search, the kind of GPU miner (cgminer's
// and ccminer's sha256d kernels) the paper's Other-Bitcoin-Crypto stands for; learned from the public
// descriptions of SHA-256 (FIPS 180-4) and of Bitcoin's proof of work, written here anew. The host hashes
// the 80-byte block header's first 64 bytes once (the midstate, a kernel argument); each launch is a fixed
// grid of `blocks` CTAs of 256 threads, each thread trying `hashes` consecutive nonces: the header's second
// chunk (its last 16 bytes with the nonce, and the padding) compressed from the midstate, then SHA-256 of
// that 32-byte hash, and where the hash's last 32-bit word is zero (hash[7] == 0, miners' test before the
// host's full check against the target) the nonce stored to the results (a store under a branch). The
// host reads the results after each launch and moves the nonce base on; the header is Bitcoin's genesis
// block's (version 1, its merkle root, time 1231006505, bits 0x1d00ffff), whose nonce 2083236893 passes.
//
// Per-lane hashing is computed by the host for each active thread and charged as the instruction counts of
// a Volta-class compile of the rounds: a round 14 integer instructions (Sigma1 and Sigma0 3 funnel shifts
// and a 3-input logic op each, Ch and Maj one 3-input logic op each, 4 three-input adds), the message
// schedule 10 per word for words 16..63 (sigma0 and sigma1 2 funnel shifts, a shift and a logic op each, 2
// adds), the state's 8 final adds: 64 x 14 + 48 x 10 + 8 = 1,384 a compression, two a nonce. Memory: the
// results (a few KiB) and nothing else; the constants are immediates.
#include <array>
#include <cmath>
#include <cstring>

#include "kernels/application.hpp"
#include "runtime/lasp_terms.hpp"

namespace numagpu::kernels {

namespace {

constexpr std::int64_t kThreads = 256;
constexpr unsigned kCompression = 64 * 14 + 48 * 10 + 8;

using State = std::array<std::uint32_t, 8>;

// SHA-256's constants from their definition: the first 32 bits of the fractional parts of the cube roots
// of the first 64 primes (round constants) and of the square roots of the first 8 (initial state).
struct Constants {
  std::array<std::uint32_t, 64> k;
  State h0;
  Constants() {
    int found = 0;
    for (int n = 2; found < 64; ++n) {
      bool prime = true;
      for (int d = 2; d * d <= n; ++d)
        prime = prime && n % d != 0;
      if (!prime) continue;
      const double cube = std::cbrt(double(n));
      k[found] = std::uint32_t((cube - std::floor(cube)) * 4294967296.0);
      if (found < 8) {
        const double root = std::sqrt(double(n));
        h0[found] = std::uint32_t((root - std::floor(root)) * 4294967296.0);
      }
      ++found;
    }
  }
};
const Constants& constants() {
  static const Constants c;
  return c;
}

std::uint32_t rotr(std::uint32_t x, int n) {
  return (x >> n) | (x << (32 - n));
}

// One compression of a 64-byte block (16 big-endian words) into `s`.
void compress(State& s, const std::array<std::uint32_t, 16>& block) {
  const auto& k = constants().k;
  std::uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = block[i];
  for (int i = 16; i < 64; ++i) {
    const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  State v = s;
  for (int i = 0; i < 64; ++i) {
    const std::uint32_t t1 = v[7] + (rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25)) +
                             ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[i] + w[i];
    const std::uint32_t t2 =
        (rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    for (int j = 7; j > 0; --j)
      v[j] = v[j - 1];
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (int j = 0; j < 8; ++j)
    s[j] += v[j];
}

std::uint32_t big_endian(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}
std::uint32_t byte_swap(std::uint32_t x) {
  return (x >> 24) | ((x >> 8) & 0xFF00) | ((x << 8) & 0xFF0000) | (x << 24);
}

class BitcoinApp : public Application {
 public:
  BitcoinApp(const Args& a, const std::string& input)
      : Application(a, input),
        blocks_(a["blocks"]),
        hashes_(a["hashes"]),
        launches_(a["launches"]),
        base_(std::uint32_t(a["base"])) {
    // The genesis block's header: version, previous hash (zero), merkle root (in the header's byte order),
    // time, bits; the nonce is the thread's.
    const char* merkle = "3ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a";
    std::uint8_t header[80] = {};
    const std::uint32_t version = 1, time = 1231006505, bits = 0x1d00ffff;
    std::memcpy(header, &version, 4);
    for (int i = 0; i < 32; ++i)
      header[36 + i] = std::uint8_t(std::stoi(std::string(merkle + 2 * i, 2), nullptr, 16));
    std::memcpy(header + 68, &time, 4);
    std::memcpy(header + 72, &bits, 4);
    midstate_ = constants().h0;
    std::array<std::uint32_t, 16> first;
    for (int i = 0; i < 16; ++i)
      first[i] = big_endian(header + 4 * i);
    compress(midstate_, first);
    for (int i = 0; i < 3; ++i)
      tail_[i] = big_endian(header + 64 + 4 * i);
  }

  // SHA-256d of the header with `nonce`: the last word of the hash as miners test it.
  std::uint32_t last_word(std::uint32_t nonce) const {
    State s = midstate_;
    compress(
        s, {tail_[0], tail_[1], tail_[2], byte_swap(nonce), 0x80000000u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 640});
    State t = constants().h0;
    compress(t, {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], 0x80000000u, 0, 0, 0, 0, 0, 0, 256});
    return t[7];
  }

  void host() override {
    for (std::int64_t l = 0; l < launches_; ++l) {
      launch("search", search(base_));
      base_ += std::uint32_t(blocks_ * kThreads * hashes_);
    }
  }

 private:
  Launch search(std::uint32_t base) {
    Launch l = one_thread_per_item(blocks_ * kThreads, kThreads, 64);
    l.body = [this, base](Cta& c) {
      const V<std::int64_t> id = c.threadIdx_x() + std::int64_t(c.blockIdx.x) * kThreads;
      c.uniform_loop(std::uint64_t(hashes_), [&](std::uint64_t h) {
        const V<std::int64_t> nonce = map(id, InstrClass::kInt, [&](std::int64_t k) {
          return std::int64_t(std::uint32_t(base + std::uint32_t(k * hashes_ + std::int64_t(h))));
        });
        const V<bool> found =
            map(nonce, InstrClass::kInt, [this](std::int64_t n) { return last_word(std::uint32_t(n)) == 0; });
        c.charge(InstrClass::kInt, 2 * kCompression - 1);
        c.if_(found, [&] {
          c.store(results_, V<std::int64_t>(c, 0), V<std::uint32_t>(c, 1));
          c.store(results_, V<std::int64_t>(c, 1), convert<std::uint32_t>(nonce));
        });
      });
    };
    // LASP's index terms (LADM §III-C): the kernel's one global array, the results, is written at the
    // constants 0 and 1 (the nonce loop moves no index): no block id and no loop term, so no row of Table II
    // on this 1-D grid (row 7): kernel-wide CTAs and pages, RTWICE, as unstated; H-CODA's batches of one CTA.
    l.accesses = {lasp_access(results_, runtime::terms::kFixedSlot)};
    return l;
  }

  std::int64_t blocks_, hashes_, launches_;
  std::uint32_t base_;
  State midstate_{};
  std::uint32_t tail_[3] = {};
  Data<std::uint32_t> results_{this, "results", 2};  // found, nonce
};

}  // namespace

ApplicationEntry app_other_bitcoin() {
  return {
      "other/bitcoin",
      "A SHA-256d Bitcoin miner's nonce search (cgminer/ccminer kind): a fixed grid of 256-thread CTAs, "
      "each thread double-hashing consecutive nonces of the genesis block's header from the host's midstate",
      {{"blocks", 60, 1, 65535, "CTAs of 256 threads a launch"},
       {"hashes", 16, 1, 1 << 20, "nonces a thread tries a launch"},
       {"launches", 3, 1, 100000, "launches (the host moves the nonce base on after each)"},
       {"base", 0, 0, 4294967295ll, "the first nonce"}},
      "",
      [](const Args& a, const std::string& input) { return std::make_unique<BitcoinApp>(a, input); }};
}

}  // namespace numagpu::kernels
