// ibd_quadratic: the native side of `npm run bench:quadratic` (bench/quadratic/quadratic.mjs),
// the legacy sighash's quadratic cost (issue 12, part 6). Each command prints one JSON line.
//
//   ibd_quadratic synthetic DIR [--inputs N] [--outputs M] [--compressed]
//       Writes the SYNTHETIC stress block (blocks-fixtures/derived/synthetic_legacy_tx.h) to
//       DIR/block.raw and its spent outputs to DIR/spent_outputs.bin (binary form, "IBS1",
//       validation/spent_outputs.h): {height, hash, inputs, outputs, block_bytes, tx_bytes,
//       generate_seconds}.
//   ibd_quadratic validate BLOCK SPENT HEIGHT [--rounds R] [--skip-pow] [--hash HEX]
//       ValidateBlock (one thread, VerifyMode::kSynchronous, as in a worker) R times (default 3)
//       in this process: round 1 is COLD (first run in the process), the others warm. SPENT is
//       the binary form or spent_outputs.json (told apart by the magic). {seconds: [...],
//       stages: [{parse_s, sighash_s, script_s, verify_s}, ...], valid, error, checks, inputs,
//       sighashes, checks_sha256, peak_rss_bytes}. checks_sha256 is SHA-256 of the final check
//       records (the parity figure wasm must match).
//   ibd_quadratic sha256 --bytes N [--reps K]
//       SHA-256 of an N-byte buffer K times (default 1), each digest written over the buffer's
//       first 32 bytes before the next (the same chain as the wasm binding sha256Chain):
//       {bytes, reps, seconds, mb_per_s, digest}. MB = 10^6 bytes.
// Exit status: 0 done (whatever the verdict); 1 an error (message on stderr); 2 a bad command line.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "crypto/sha256.h"
#include "primitives/hex.h"
#include "derived/synthetic_legacy_tx.h"
#include "validation/block_validation.h"
#include "validation/spent_outputs.h"

namespace {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

double Seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

std::vector<uint8_t> ReadFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
}

/** The unsigned integer after flag `name` at argv[k + 1] (advancing k), in [min, max]. */
uint64_t NumberArg(int argc, char** argv, int& k, uint64_t min, uint64_t max) {
    const std::string name = argv[k];
    if (k + 1 >= argc) throw UsageError(name + " needs a value");
    const std::string text = argv[++k];
    size_t used = 0;
    uint64_t v = 0;
    try {
        v = std::stoull(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || text[0] == '-' || v < min || v > max) {
        throw UsageError(name + " must be an integer in " + std::to_string(min) + ".." + std::to_string(max) +
                         ", got \"" + text + "\"");
    }
    return v;
}

int64_t PeakRssBytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<int64_t>(u.ru_maxrss) * 1024;  // Linux: kilobytes
}

int Synthetic(int argc, char** argv) {
    if (argc < 3) throw UsageError("synthetic needs DIR");
    const std::string dir = argv[2];
    ibd::test::SyntheticLegacyParams p;
    for (int k = 3; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--inputs") {
            p.inputs = static_cast<uint32_t>(NumberArg(argc, argv, k, 0, UINT32_MAX));
        } else if (a == "--outputs") {
            p.outputs = static_cast<uint32_t>(NumberArg(argc, argv, k, 0, UINT32_MAX));
        } else if (a == "--compressed") {
            p.compressed_keys = true;
        } else {
            throw UsageError("unknown argument " + a);
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    ibd::test::SyntheticLegacyBlock s;
    try {
        s = ibd::test::MakeSyntheticLegacyBlock(p);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    const auto t1 = std::chrono::steady_clock::now();
    WriteFile(dir + "/block.raw", s.block);
    WriteFile(dir + "/spent_outputs.bin", ibd::SerializeSpentOutputs(s.spent));
    const nlohmann::json out = {{"height", s.height},           {"hash", s.hash_hex},
                                {"inputs", p.inputs},           {"outputs", p.outputs},
                                {"compressed_keys", p.compressed_keys},
                                {"block_bytes", s.block.size()}, {"tx_bytes", s.tx_bytes},
                                {"generate_seconds", Seconds(t0, t1)}};
    std::cout << out.dump() << "\n";
    return 0;
}

int Validate(int argc, char** argv) {
    if (argc < 5) throw UsageError("validate needs BLOCK SPENT HEIGHT");
    const std::vector<uint8_t> raw = ReadFile(argv[2]);
    const std::vector<uint8_t> spent_bytes = ReadFile(argv[3]);
    int k = 3;
    const int32_t height = static_cast<int32_t>(NumberArg(argc, argv, k, 0, INT32_MAX));
    uint64_t rounds = 3;
    ibd::ChainContext context;
    std::string expected_hash;
    for (k = 5; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--rounds") {
            rounds = NumberArg(argc, argv, k, 1, 1000);
        } else if (a == "--skip-pow") {
            context.skip_proof_of_work = true;
        } else if (a == "--hash") {
            if (k + 1 >= argc) throw UsageError("--hash needs a value");
            expected_hash = argv[++k];
        } else {
            throw UsageError("unknown argument " + a);
        }
    }
    const bool binary = spent_bytes.size() >= 4 && std::memcmp(spent_bytes.data(), ibd::kSpentOutputsMagic, 4) == 0;
    const std::vector<ibd::SpentOutputEntry> spent =
        binary ? ibd::ParseSpentOutputsBinary(spent_bytes.data(), spent_bytes.size())
               : ibd::ParseSpentOutputsJson(std::string(spent_bytes.begin(), spent_bytes.end()));
    ibd::ValidationOptions options;
    options.verify = ibd::VerifyMode::kSynchronous;
    nlohmann::json seconds = nlohmann::json::array(), stages = nlohmann::json::array();
    ibd::BlockValidationResult r;
    for (uint64_t round = 0; round < rounds; ++round) {
        const auto t0 = std::chrono::steady_clock::now();
        r = ibd::ValidateBlock(raw.data(), raw.size(), spent, expected_hash, height, context, options);
        const auto t1 = std::chrono::steady_clock::now();
        seconds.push_back(Seconds(t0, t1));
        stages.push_back({{"parse_s", r.times.parse_ns * 1e-9},
                          {"sighash_s", r.times.sighash_ns * 1e-9},
                          {"script_s", r.times.script_ns * 1e-9},
                          {"verify_s", r.times.verify_ns * 1e-9}});
    }
    const ibd::Hash32 checks_sha = ibd::Sha256Hash(r.checks.data(), r.checks.size());
    const nlohmann::json out = {{"seconds", seconds},
                                {"stages", stages},
                                {"valid", r.valid},
                                {"error", r.error},
                                {"checks", r.origins.size()},
                                {"inputs", r.inputs},
                                {"sighashes", r.sighashes},
                                {"checks_sha256", ibd::HexEncode(checks_sha.data(), checks_sha.size())},
                                {"peak_rss_bytes", PeakRssBytes()}};
    std::cout << out.dump() << "\n";
    return 0;
}

int Sha256(int argc, char** argv) {
    uint64_t bytes = 0, reps = 1;
    for (int k = 2; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--bytes") {
            bytes = NumberArg(argc, argv, k, 32, uint64_t{1} << 30);
        } else if (a == "--reps") {
            reps = NumberArg(argc, argv, k, 1, 1000000);
        } else {
            throw UsageError("unknown argument " + a);
        }
    }
    if (bytes == 0) throw UsageError("sha256 needs --bytes N");
    std::vector<uint8_t> buf(bytes);
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 131 + 7);
    ibd::Hash32 d{};
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t r = 0; r < reps; ++r) {
        d = ibd::Sha256Hash(buf.data(), buf.size());
        std::memcpy(buf.data(), d.data(), d.size());
    }
    const auto t1 = std::chrono::steady_clock::now();
    const double s = Seconds(t0, t1);
    const nlohmann::json out = {{"bytes", bytes},
                                {"reps", reps},
                                {"seconds", s},
                                {"mb_per_s", static_cast<double>(bytes) * static_cast<double>(reps) / s / 1e6},
                                {"digest", ibd::HexEncode(d.data(), d.size())}};
    std::cout << out.dump() << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "";
    try {
        if (cmd == "synthetic") return Synthetic(argc, argv);
        if (cmd == "validate") return Validate(argc, argv);
        if (cmd == "sha256") return Sha256(argc, argv);
        throw UsageError(cmd.empty() ? "missing command" : "unknown command " + cmd);
    } catch (const UsageError& e) {
        std::cerr << "ibd_quadratic: " << e.what()
                  << "\nusage: ibd_quadratic synthetic DIR [--inputs N] [--outputs M] [--compressed]\n"
                     "       ibd_quadratic validate BLOCK SPENT HEIGHT [--rounds R] [--skip-pow] [--hash HEX]\n"
                     "       ibd_quadratic sha256 --bytes N [--reps K]\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "ibd_quadratic: " << e.what() << "\n";
        return 1;
    }
}
