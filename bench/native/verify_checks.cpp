// ibd_verify_checks <file.checks> [--rounds N] [--batch B] [--schnorr-batch | --stock]
//
// Verifies every record of a packed check file (layout: native/verify/check_buffer.h; e.g. written by
// ibd_dump_checks or by the Node benchmark from the same buffer it hands to the wasm workers)
// with VerifyBatch (batch_verify.h) on this thread, B records per call (default: the whole file
// as one call; --batch 1 verifies every check alone, which for Schnorr records is single
// BIP340 verification, no batch), and prints one JSON line on stdout:
//   {"count": records, "valid": n, "invalid": n, "rounds": N, "batch": B (null: whole file),
//    "seconds": [wall time of each timed round, s], "checks_per_second_median": count / median
//    round time (null for an empty file), "verdicts_sha256": SHA-256 of the verdict bytes (one
//    Verdict byte per record, check_buffer.h), lowercase hex}
// so that native and wasm verification of the SAME buffer are timed in one run and their
// verdicts compared by hash. A first, untimed pass counts the records (the file has no header:
// VerifyBatch is given more records than can fit and must stop with a truncation exactly at the
// end of the file) and warms the caches; N timed rounds follow (default 3, 1..1000). Not
// measured: reading the file, threads (one core). The record offsets of the calls are found
// before the timed rounds. B is an integer in 1..1000000.
// --schnorr-batch: each call is instead one raw BIP340 batch verification of its B records
// (ibd::VerifySchnorrBatchOnce: no grouping, no fallback; every record must be a Schnorr
// record), for the per-signature cost curve of `npm run bench:schnorr-batch`. A call must give
// 1 exactly when the first pass found all its records valid; "schnorr_batch": true is printed.
// --stock: each record is instead verified as Bitcoin Core's CPubKey::Verify and its BIP340
// check do it, through libsecp256k1's public API alone, nothing kept between records (ECDSA:
// secp256k1_ec_pubkey_parse, the lax DER parse, low-S normalization, secp256k1_ecdsa_verify;
// Schnorr: secp256k1_xonly_pubkey_parse, secp256k1_schnorrsig_verify): the library as shipped,
// without the engine's key cache, key tables and BIP340 batches; "stock": true is printed. Its
// verdicts must equal the first pass's (VerifyBatch's), record by record.
// Exit status: 0 done (whatever the verdicts); 1 bad command line, unreadable file, malformed
// record (stderr names the record index and byte offset, VerifyBatch's BatchStatus), or a
// timed round whose verdicts differ from the first pass.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

#include "crypto/sha256.h"
#include "file_bytes.h"
#include "primitives/hex.h"
#include "verify/batch_verify.h"
#include "verify/check_buffer.h"
#include "verify/ecdsa_lax_der.h"

namespace {

constexpr int kMaxRounds = 1000;
constexpr int kMaxBatch = 1000000;

const char* BatchErrorName(int error) {
    switch (error) {
        case 1: return "truncated record";
        case 2: return "unknown check type";
        case 3: return "lengths not allowed for its type";
        default: return "malformed record";
    }
}

int Usage(const std::string& problem) {
    std::cerr << "ibd_verify_checks: " << problem
              << "\nusage: ibd_verify_checks <file.checks> [--rounds N] [--batch B] [--schnorr-batch | --stock]   (N 1.." << kMaxRounds
              << ", default 3; B records per call, 1.." << kMaxBatch
              << ", default all; --schnorr-batch: each call one raw BIP340 batch of Schnorr records; --stock: each record by libsecp256k1's public API alone, no cache, no batch)\n";
    return 1;
}

/** Parses a decimal count in 1..max (max < 10^7); false for anything else. */
bool ParseCount(const std::string& text, int max, int& out) {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (text.empty() || text.size() > 7 || !std::all_of(text.begin(), text.end(), digit)) return false;
    out = std::stoi(text);
    return out >= 1 && out <= max;
}

/** One well-formed record (check_buffer.h) verified by libsecp256k1's public API alone, as Bitcoin
 *  Core's CPubKey::Verify (ECDSA) and XOnlyPubKey::VerifySchnorr do: a Verdict byte. */
uint8_t StockVerify(const uint8_t* rec) {
    const uint8_t* msg32 = rec + 4;
    const size_t pubkey_len = rec[1];
    const size_t sig_len = static_cast<size_t>(rec[2]) | (static_cast<size_t>(rec[3]) << 8);
    const uint8_t* pubkey = rec + ibd::kCheckHeaderSize;
    const uint8_t* sig = pubkey + pubkey_len;
    bool ok = false;
    if (rec[0] == static_cast<uint8_t>(ibd::CheckType::kEcdsa)) {
        secp256k1_pubkey pk;
        secp256k1_ecdsa_signature parsed;
        ok = (pubkey_len == 33 || pubkey_len == 65) &&
             secp256k1_ec_pubkey_parse(secp256k1_context_static, &pk, pubkey, pubkey_len) &&
             ibd::EcdsaSignatureParseDerLax(sig, sig_len, &parsed);
        if (ok) {
            secp256k1_ecdsa_signature_normalize(secp256k1_context_static, &parsed, &parsed);
            ok = secp256k1_ecdsa_verify(secp256k1_context_static, &parsed, msg32, &pk) == 1;
        }
    } else {
        secp256k1_xonly_pubkey pk;
        ok = pubkey_len == 32 && sig_len == 64 && secp256k1_xonly_pubkey_parse(secp256k1_context_static, &pk, pubkey) &&
             secp256k1_schnorrsig_verify(secp256k1_context_static, sig, msg32, 32, &pk) == 1;
    }
    return static_cast<uint8_t>(ok ? ibd::Verdict::kValid : ibd::Verdict::kInvalid);
}

/** Median of `v` (sorted copy; mean of the middle two for an even count). */
double Median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string path;
    int rounds = 3;
    int batch = 0;  // 0: the whole file in one call
    bool schnorr_batch = false;
    bool stock = false;
    std::vector<std::string> seen;  // value flags given so far: one given twice is refused
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--rounds" || arg == "--batch") {
            if (std::find(seen.begin(), seen.end(), arg) != seen.end()) return Usage(arg + " given twice; give it once");
            seen.push_back(arg);
        }
        if (arg == "--rounds") {
            if (i + 1 >= argc || !ParseCount(argv[i + 1], kMaxRounds, rounds)) {
                return Usage("--rounds needs an integer in 1.." + std::to_string(kMaxRounds));
            }
            ++i;
        } else if (arg == "--batch") {
            if (i + 1 >= argc || !ParseCount(argv[i + 1], kMaxBatch, batch)) {
                return Usage("--batch needs an integer in 1.." + std::to_string(kMaxBatch));
            }
            ++i;
        } else if (arg == "--schnorr-batch") {
            schnorr_batch = true;
        } else if (arg == "--stock") {
            stock = true;
        } else if (!arg.empty() && arg[0] == '-') {
            return Usage("unknown option " + arg);
        } else if (path.empty()) {
            path = arg;
        } else {
            return Usage("one check file only, got a second: " + arg);
        }
    }
    if (path.empty()) return Usage("no check file given");
    if (stock && schnorr_batch) return Usage("--stock and --schnorr-batch exclude each other");

    std::vector<uint8_t> checks;
    try {
        checks = ibd::fixtures::ReadFileBytes(path);
    } catch (const std::exception& e) {
        std::cerr << "ibd_verify_checks: " << e.what() << "\n";
        return 1;
    }

    // Counting pass: every record is at least kCheckHeaderSize bytes, so at most len / 36 fit;
    // one more is asked for, and a well-formed file ends with a truncation at its last byte.
    const size_t max_records = checks.size() / ibd::kCheckHeaderSize;
    if (max_records >= UINT32_MAX) {
        std::cerr << "ibd_verify_checks: " << path << ": too large (" << checks.size() << " bytes)\n";
        return 1;
    }
    std::vector<uint8_t> first(max_records + 1);
    const ibd::BatchStatus scan =
        ibd::VerifyBatch(checks.data(), checks.size(), static_cast<uint32_t>(max_records + 1), first.data());
    if (scan.error != 1 || scan.error_offset != checks.size()) {
        std::cerr << "ibd_verify_checks: " << path << ": record " << scan.error_record << " at byte "
                  << scan.error_offset << ": " << BatchErrorName(scan.error) << " (layout: native/verify/check_buffer.h)\n";
        return 1;
    }
    const uint32_t count = scan.error_record;
    first.resize(count);

    // Calls of `per_call` records: call k covers records [k * per_call, ...), bytes from starts[k].
    const uint32_t per_call = batch == 0 ? std::max<uint32_t>(count, 1) : static_cast<uint32_t>(batch);
    std::vector<size_t> starts;
    {
        size_t offset = 0;
        for (uint32_t i = 0; i < count; ++i) {
            if (i % per_call == 0) starts.push_back(offset);
            const uint8_t* rec = checks.data() + offset;
            offset += ibd::kCheckHeaderSize + rec[1] + (static_cast<size_t>(rec[2]) | (static_cast<size_t>(rec[3]) << 8));
        }
        starts.push_back(offset);
    }

    std::vector<uint8_t> verdicts(count);
    std::vector<int> call_results(starts.size() - 1);  // --schnorr-batch: each call's 1 / 0
    std::vector<double> seconds;
    for (int r = 0; r < rounds; ++r) {
        int error = 0;
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t k = 0; k + 1 < starts.size(); ++k) {
            const uint32_t first_record = static_cast<uint32_t>(k) * per_call;
            const uint32_t n = std::min(per_call, count - first_record);
            if (stock) {
                size_t offset = starts[k];
                for (uint32_t i = 0; i < n; ++i) {
                    const uint8_t* rec = checks.data() + offset;
                    verdicts[first_record + i] = StockVerify(rec);
                    offset += ibd::kCheckHeaderSize + rec[1] + (static_cast<size_t>(rec[2]) | (static_cast<size_t>(rec[3]) << 8));
                }
                continue;
            }
            if (!schnorr_batch) {
                error |= ibd::VerifyBatch(checks.data() + starts[k], starts[k + 1] - starts[k], n,
                                          verdicts.data() + first_record).error;
                continue;
            }
            uint32_t bad = 0;
            call_results[k] = ibd::VerifySchnorrBatchOnce(checks.data() + starts[k], starts[k + 1] - starts[k], n, &bad);
            if (call_results[k] < 0) {
                std::cerr << "ibd_verify_checks: " << path << ": --schnorr-batch: record " << (first_record + bad)
                          << " is not a Schnorr record (32-byte key, 64-byte signature)\n";
                return 1;
            }
        }
        const auto t1 = std::chrono::steady_clock::now();
        seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
        if (schnorr_batch) {
            // A batch's one answer for its records: 1 exactly when the first pass found them all valid.
            for (size_t k = 0; k < call_results.size(); ++k) {
                const uint32_t first_record = static_cast<uint32_t>(k) * per_call;
                const uint32_t n = std::min(per_call, count - first_record);
                const bool all = std::all_of(first.begin() + first_record, first.begin() + first_record + n,
                                             [](uint8_t v) { return v == static_cast<uint8_t>(ibd::Verdict::kValid); });
                if (call_results[k] != (all ? 1 : 0)) error = 1;
            }
            verdicts = first;
        }
        if (error != 0 || verdicts != first) {
            std::cerr << "ibd_verify_checks: " << path << ": timed round " << (r + 1)
                      << " does not reproduce the first pass's verdicts\n";
            return 1;
        }
    }

    const uint32_t valid = static_cast<uint32_t>(
        std::count(first.begin(), first.end(), static_cast<uint8_t>(ibd::Verdict::kValid)));
    const double median = Median(seconds);
    nlohmann::ordered_json out = {
        {"count", count},
        {"valid", valid},
        {"invalid", count - valid},
        {"rounds", rounds},
        {"batch", batch == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(batch)},
        {"schnorr_batch", schnorr_batch},
        {"stock", stock},
        {"seconds", seconds},
        {"checks_per_second_median", nullptr},
        {"verdicts_sha256", ibd::HexEncode(ibd::Sha256Hash(first.data(), first.size()))},
    };
    if (count > 0 && median > 0) out["checks_per_second_median"] = count / median;
    std::cout << out.dump() << "\n";
    return 0;
}
