// ibd_dump_checks <block.raw> <spent_outputs.json> <expected_hash_hex> <out_prefix>
//
// Runs the engine on one block and writes, for the native-vs-wasm parity test:
//   <out_prefix>.checks    the packed check buffer (layout: native/check_buffer.h)
//   <out_prefix>.verdicts  one Verdict byte per record, from VerifyBatch (batch_verify.h)
// and prints a summary (block hash, counts by input type, verdict counts) on stdout.
// Exit status: 0 done (whatever the verdicts), 1 usage or output file error, 2 ibd::Error on
// the input (its what() on stderr, naming file / block / tx / input / byte), 3 other failure.
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "batch_verify.h"
#include "engine.h"
#include "error.h"

namespace {

/** Reads a whole file; throws ibd::Error naming it when it cannot be read. */
std::vector<uint8_t> ReadFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    ibd::Location at;
    at.file = path;
    if (!f) throw ibd::Error("cannot open file", at);
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (f.bad()) throw ibd::Error("cannot read file", at);
    return data;
}

bool WriteFile(const std::string& path, const uint8_t* data, size_t len) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) return false;
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(len));
    return static_cast<bool>(f);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::cerr << "usage: " << argv[0] << " <block.raw> <spent_outputs.json> <expected_hash_hex> <out_prefix>\n";
        return 1;
    }
    const std::string block_path = argv[1], spent_path = argv[2], expected = argv[3], prefix = argv[4];
    ibd::BlockChecks bc;
    try {
        const std::vector<uint8_t> block = ReadFile(block_path);
        const std::vector<uint8_t> json = ReadFile(spent_path);
        std::vector<ibd::SpentOutputEntry> spent;
        try {
            spent = ibd::ParseSpentOutputsJson(std::string_view(reinterpret_cast<const char*>(json.data()), json.size()));
        } catch (const ibd::Error& e) {
            ibd::Location at;
            at.file = spent_path;
            throw e.with_context(at);
        }
        try {
            bc = ibd::ExtractBlockChecks(block.data(), block.size(), spent, expected);
        } catch (const ibd::Error& e) {
            ibd::Location at;
            at.file = block_path;
            throw e.with_context(at);
        }
    } catch (const ibd::Error& e) {
        std::cerr << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "unexpected failure: " << e.what() << "\n";
        return 3;
    }

    const uint32_t count = static_cast<uint32_t>(bc.origins.size());
    if (!WriteFile(prefix + ".checks", bc.checks.data(), bc.checks.size())) {
        std::cerr << "cannot write " << prefix << ".checks\n";
        return 1;
    }
    std::vector<uint8_t> verdicts(count, static_cast<uint8_t>(ibd::Verdict::kInvalid));
    const ibd::BatchStatus st = ibd::VerifyBatch(bc.checks.data(), bc.checks.size(), count, verdicts.data());
    if (st.error != 0) {
        std::cerr << "VerifyBatch: malformed record " << st.error_record << " at byte " << st.error_offset
                  << " (error " << st.error << ")\n";
        return 3;
    }
    if (!WriteFile(prefix + ".verdicts", verdicts.data(), verdicts.size())) {
        std::cerr << "cannot write " << prefix << ".verdicts\n";
        return 1;
    }

    uint32_t valid = 0;
    for (uint8_t v : verdicts) valid += v == static_cast<uint8_t>(ibd::Verdict::kValid);
    std::cout << "block " << bc.hash_hex << "\n"
              << "txs " << bc.tx_count << ", inputs " << bc.inputs << ", checks " << count << " (ecdsa "
              << bc.ecdsa_checks << ", schnorr " << bc.schnorr_checks << ")\n";
    for (const auto& [name, n] : bc.inputs_by_type) std::cout << "supported " << name << " " << n << "\n";
    for (const auto& [name, n] : bc.unsupported_by_type) std::cout << "unsupported " << name << " " << n << "\n";
    std::cout << "verdicts valid " << valid << ", invalid " << (count - valid) << "\n";
    return 0;
}
