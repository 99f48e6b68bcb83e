// ibd_dump_checks <block.raw> <spent_outputs.json> <expected_hash_hex> <height> <out_prefix> [<tx_begin> <tx_end>]
//
// With <tx_begin> <tx_end>: only that range of the block's transactions, without the block rules
// (BlockScope, block_validation.h), its checks verified as a worker does (VerifyMode::
// kSynchronous) and its spent outputs handed over in the binary form (SerializeSpentOutputs):
// the path of a worker's validate job, for the native/wasm parity of ranges.
//
// Validates one block (BlockValidation, native/validation/block_validation.h: every input through
// the interpreter, each round's pending checks verified with VerifyBatch, batch_verify.h, on
// this thread) and writes, for the native-vs-wasm parity test:
//   <out_prefix>.checks    the FINAL checks of all inputs, packed (layout: native/verify/check_buffer.h)
//   <out_prefix>.verdicts  one Verdict byte per final check
// and prints a summary (block hash, verdict, rounds, coverage by script type, fee, subsidy,
// sigop cost, reject reason and stage, "at tx T input I output O", "failed_inputs tx:input:ERROR
// ...", the rules not checked) on stdout. A block rejected before any input is connected
// (BlockRejected) writes empty files and prints its block, reject, at and not_checked lines.
// <height> is the block's height (decimal, 0..2147483647; block_validation.h).
// Exit status: 0 done (whatever the verdicts and the block verdict), 1 usage or output file
// error, 2 ibd::Error on
// the input (its what() on stderr, naming file / block / tx / input / byte; also an unreadable
// input file, e.g. a directory, and running out of memory while parsing the spent outputs),
// 3 other failure.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "file_bytes.h"
#include "util/error.h"
#include "validation/block_check.h"
#include "validation/block_validation.h"
#include "validation/spent_outputs.h"

namespace {

/** Parses a decimal height in [0, 2147483647]; false for anything else. */
bool ParseHeight(const std::string& text, int32_t& out) {
    if (text.empty() || text.size() > 10) return false;
    int64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    if (v > 2147483647) return false;
    out = static_cast<int32_t>(v);
    return true;
}

bool WriteFile(const std::string& path, const uint8_t* data, size_t len) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) return false;
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(len));
    return static_cast<bool>(f);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 6 && argc != 8) {
        std::cerr << "usage: " << argv[0]
                  << " <block.raw> <spent_outputs.json> <expected_hash_hex> <height> <out_prefix> [<tx_begin> <tx_end>]\n";
        return 1;
    }
    int32_t tx_begin = 0, tx_end = 0;
    if (argc == 8 && (!ParseHeight(argv[6], tx_begin) || !ParseHeight(argv[7], tx_end))) {
        std::cerr << "tx_begin and tx_end must be decimal integers in [0, 2147483647]\n";
        return 1;
    }
    const std::string block_path = argv[1], spent_path = argv[2], expected = argv[3], prefix = argv[5];
    int32_t height = 0;
    if (!ParseHeight(argv[4], height)) {
        std::cerr << "height must be a decimal integer in [0, 2147483647], got '" << argv[4] << "'\n";
        return 1;
    }
    ibd::BlockValidationResult bc;
    try {
        const std::vector<uint8_t> block = ibd::fixtures::ReadFileBytes(block_path);
        const std::vector<uint8_t> json = ibd::fixtures::ReadFileBytes(spent_path);
        std::vector<ibd::SpentOutputEntry> spent;
        try {
            spent = ibd::ParseSpentOutputsJson(std::string_view(reinterpret_cast<const char*>(json.data()), json.size()));
        } catch (const ibd::Error& e) {
            ibd::Location at;
            at.file = spent_path;
            throw e.with_context(at);
        } catch (const std::bad_alloc&) {
            ibd::Location at;
            at.file = spent_path;
            throw ibd::Error("out of memory while parsing spent outputs (" + std::to_string(json.size()) + " bytes)",
                             at);
        }
        try {
            if (argc == 8) {
                ibd::ValidationOptions options;
                options.verify = ibd::VerifyMode::kSynchronous;
                options.scope = {static_cast<uint32_t>(tx_begin), static_cast<uint32_t>(tx_end), false};
                const std::vector<uint8_t> binary = ibd::SerializeSpentOutputs(spent);
                bc = ibd::ValidateBlock(block.data(), block.size(), binary.data(), binary.size(), expected, height, {},
                                        options);
            } else {
                bc = ibd::ValidateBlock(block.data(), block.size(), spent, expected, height);
            }
        } catch (const ibd::BlockRejected& e) {
            // Rejected before any input is connected: a verdict, with no checks.
            if (!WriteFile(prefix + ".checks", nullptr, 0) || !WriteFile(prefix + ".verdicts", nullptr, 0)) {
                std::cerr << "cannot write " << prefix << ".checks / .verdicts\n";
                return 1;
            }
            std::cout << "block " << e.where().block_hash << "\n"
                      << "reject '" << e.reject_reason() << "' stage '" << e.stage() << "'\n"
                      << "at tx " << e.where().tx_index << " input " << e.where().input_index << " output "
                      << e.where().output_index << "\n"
                      << "not_checked";
            for (const ibd::NotChecked& n : e.not_checked()) std::cout << " " << n.rule;
            std::cout << "\nblock INVALID: " << e.what() << "\n";
            return 0;
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
    if (!WriteFile(prefix + ".verdicts", bc.verdicts.data(), bc.verdicts.size())) {
        std::cerr << "cannot write " << prefix << ".verdicts\n";
        return 1;
    }
    uint32_t valid = 0;
    for (uint8_t v : bc.verdicts) valid += v == static_cast<uint8_t>(ibd::Verdict::kValid);
    uint32_t evaluated = 0;
    for (const auto& [name, c] : bc.coverage) evaluated += c.evaluated;
    std::cout << "block " << bc.hash_hex << "\n"
              << "txs " << bc.tx_count << ", inputs " << bc.inputs << " (evaluated " << evaluated << "), checks "
              << count << " (ecdsa " << bc.ecdsa_checks << ", schnorr " << bc.schnorr_checks << "), rounds "
              << bc.rounds << "\n";
    for (const auto& [name, c] : bc.coverage) {
        std::cout << "type " << name << " inputs " << c.inputs << " evaluated " << c.evaluated << " checks " << c.checks << " script_bytes " << c.script_bytes
                  << "\n";
    }
    std::cout << "verdicts valid " << valid << ", invalid " << (count - valid) << "\n";
    // The block rules' figures, compared with the wasm result by tests/native-wasm-parity.test.mjs.
    std::cout << "fee " << bc.fee << " subsidy " << bc.subsidy << " sigop_cost " << bc.sigop_cost << "\n";
    std::cout << "sighash legacy " << bc.sighash_counts.count[0] << " " << bc.sighash_counts.bytes[0] << " bip143 "
              << bc.sighash_counts.count[1] << " " << bc.sighash_counts.bytes[1] << " bip341 " << bc.sighash_counts.count[2]
              << " " << bc.sighash_counts.bytes[2] << " precompute " << bc.precompute_bytes[0] << " "
              << bc.precompute_bytes[1] << " hashed_legacy " << bc.sighash_counts.hashed[0] << "\n";
    std::cout << "reject '" << bc.reject_reason << "' stage '" << bc.stage << "'\n";
    std::cout << "at tx " << bc.tx_index << " input " << bc.input_index << " output " << bc.output_index << "\n";
    std::cout << "failed_inputs";
    for (const ibd::InputFailure& f : bc.input_failures) std::cout << " " << f.tx << ":" << f.input << ":" << f.script_error;
    std::cout << "\n";
    std::cout << "not_checked";
    for (const ibd::NotChecked& n : bc.not_checked) std::cout << " " << n.rule;
    std::cout << "\n";
    std::cout << (bc.valid ? std::string("block valid") : "block INVALID: " + bc.error) << "\n";
    return 0;
}
