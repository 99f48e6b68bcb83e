// libFuzzer target: the engine's parsers on arbitrary bytes. Three modes, chosen by the low two
// bits of the first byte:
//
//   0, 1  block    BlockValidation (validation/block_validation.h: every input through
//                  VerifyScript, in rounds) on a block and a spent-outputs list, both from the
//                  input, run to the end with verdicts from a source the input chooses
//   2     tx       ParseTransaction on the rest of the input (whole buffer, then as a stream of
//                  transactions through a Reader), CheckTransaction on each one parsed
//   3     json     ParseSpentOutputsJson on the rest of the input as text
//
// Block mode input (fuzz/seed_corpus.cpp writes the seeds in this layout from the fixture blocks):
//
//   offset  size  field
//   0       1     options: bit 2 fix up the merkle root and the witness commitment (so that
//                 mutated blocks get past CheckBlock to signature extraction); bit 3 take every
//                 spent entry's outpoint from the block's inputs, in order (a matching list);
//                 bit 4 pass the expected block hash; bit 5 ... and corrupt it; bits 6-7 the
//                 verdicts handed to Resolve: 0 VerifyBatch (the real ones), 1 all valid,
//                 2 all invalid, 3 valid iff the low bit of the record's msg32 is set
//   1       4     height, int32 LE
//   5       4     block length n, uint32 LE (clamped to what is left)
//   9       n     the block
//   9+n     ...   spent entries until the input ends, each: value int64 LE (8), vout uint32 LE
//                 (4), txid in internal byte order (32), script length uint16 LE (2), script
//
// Contract checked: the only exception the engine may throw is ibd::Error (std::bad_alloc shows
// as libFuzzer's malloc limit); anything else escapes and aborts, which libFuzzer reports. Every
// round's pending checks and the final checks must walk record by record to their exact end,
// with one origin per record inside the block; Result() must refuse while checks are pending;
// rounds must end; the result must add up (one verdict per check, ecdsa + schnorr = records,
// every input evaluated and counted once in the coverage, valid iff no rule and no input
// failed, an invalid verdict located at its tx and input or output, a script error at a failing
// input, a valid block's fee and sigop cost in range); an Error with a stage carries Core's
// reject reason at the start of its reason. Mode 0/1 with fix-ups reaches the new rules
// (sigops, amounts: spent values are any int64, finality, versions) on mutated fixture blocks.
// Mode 3: every entry the JSON form accepts (any int64 value: range is a verdict on the block)
// comes back unchanged through the binary form (SerializeSpentOutputs, ParseSpentOutputsBinary).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/block.h"
#include "primitives/hex.h"
#include "primitives/serialize.h"
#include "primitives/transaction.h"
#include "derived/block_mutation.h"
#include "util/error.h"
#include "validation/block_validation.h"
#include "validation/spent_outputs.h"
#include "verify/batch_verify.h"
#include "verify/check_buffer.h"

namespace {

/** Reads the input front to back; past the end every read yields zeros / nothing. */
struct Input {
    const uint8_t* p;
    size_t n;
    size_t pos = 0;
    size_t left() const { return n - pos; }
    uint64_t LE(size_t bytes) {
        uint64_t v = 0;
        for (size_t i = 0; i < bytes && pos < n; ++i) v |= uint64_t(p[pos++]) << (8 * i);
        return v;
    }
    const uint8_t* Take(size_t len, size_t& got) {
        got = std::min(len, left());
        const uint8_t* at = p + pos;
        pos += got;
        return at;
    }
};

/** IBD_FUZZ_DEBUG=1 in the environment prints what each block input ends in (to check seeds). */
bool Debug() {
    static const bool on = std::getenv("IBD_FUZZ_DEBUG") != nullptr;
    return on;
}

[[noreturn]] void Fail(const char* what) {
    std::fprintf(stderr, "block_parser_fuzz: contract violated: %s\n", what);
    std::abort();
}

void FuzzTransaction(const uint8_t* data, size_t len) {
    try {
        const ibd::Transaction tx = ibd::ParseTransaction(data, len);
        (void)tx.IsCoinBase();
        (void)tx.HasWitness();
        if (tx.size > len || tx.stripped_size > tx.size) Fail("transaction sizes out of range");
        ibd::CheckTransaction(tx);
    } catch (const ibd::Error&) {
    }
    // The same bytes as a stream of transactions, the way ParseBlock reads them.
    ibd::Reader r(data, len, 1);
    try {
        while (!r.empty()) {
            const size_t before = r.pos();
            const ibd::Transaction tx = ibd::ParseTransaction(r);
            if (r.pos() <= before || tx.size != r.pos() - before) Fail("Reader did not advance by the tx size");
        }
    } catch (const ibd::Error&) {
    }
}

void FuzzJson(const uint8_t* data, size_t len) {
    try {
        const auto entries =
            ibd::ParseSpentOutputsJson(std::string_view(reinterpret_cast<const char*>(data), len));
        // Any int64 value is kept (range is a verdict on the block, spent_outputs.h), so the
        // contract is that the binary form carries every entry unchanged.
        const std::vector<uint8_t> bin = ibd::SerializeSpentOutputs(entries);
        const auto back = ibd::ParseSpentOutputsBinary(bin.data(), bin.size());
        if (back.size() != entries.size()) Fail("binary form lost or added an entry");
        for (size_t i = 0; i < entries.size(); ++i) {
            const auto& a = entries[i];
            const auto& b = back[i];
            if (a.out.value != b.out.value || a.out.script_pubkey != b.out.script_pubkey ||
                a.prevout.txid != b.prevout.txid || a.prevout.n != b.prevout.n) {
                Fail("binary form changed an entry");
            }
        }
    } catch (const ibd::Error&) {
    }
}

/** Walks a packed check buffer; returns the number of records. */
size_t WalkRecords(const std::vector<uint8_t>& b) {
    size_t pos = 0, records = 0;
    while (pos < b.size()) {
        if (b.size() - pos < ibd::kCheckHeaderSize) Fail("check buffer ends inside a record header");
        const size_t pubkey_len = b[pos + 1];
        const size_t sig_len = size_t(b[pos + 2]) | size_t(b[pos + 3]) << 8;
        const auto type = static_cast<ibd::CheckType>(b[pos]);
        if (type != ibd::CheckType::kEcdsa && type != ibd::CheckType::kSchnorr) Fail("unknown check type");
        if (type == ibd::CheckType::kSchnorr && (pubkey_len != 32 || sig_len != 64)) Fail("bad Schnorr record");
        if (type == ibd::CheckType::kEcdsa && sig_len > ibd::kMaxEcdsaSigLen) Fail("ECDSA signature too long");
        pos += ibd::kCheckHeaderSize + pubkey_len + sig_len;
        if (pos > b.size()) Fail("check record runs past the buffer");
        ++records;
    }
    return records;
}

void CheckOrigins(const std::vector<ibd::CheckOrigin>& origins, uint32_t tx_count) {
    for (const auto& o : origins) {
        if (o.tx_index == 0 || o.tx_index >= tx_count) Fail("check origin outside the block's transactions");
    }
}

/** The verdicts of one round from the source `source` (options bits 6-7). */
std::vector<uint8_t> Verdicts(const ibd::BlockValidation& v, unsigned source) {
    const uint32_t n = v.PendingCount();
    const std::vector<uint8_t>& checks = v.PendingChecks();
    std::vector<uint8_t> out(n, static_cast<uint8_t>(ibd::Verdict::kInvalid));
    if (source == 0) {
        const ibd::BatchStatus st = ibd::VerifyBatch(checks.data(), checks.size(), n, out.data());
        if (st.error != 0) Fail("VerifyBatch refused a pending check buffer");
    } else if (source == 1) {
        std::fill(out.begin(), out.end(), static_cast<uint8_t>(ibd::Verdict::kValid));
    } else if (source == 3) {
        size_t pos = 0;
        for (uint32_t i = 0; i < n; ++i) {
            out[i] = checks[pos + 4] & 1;  // msg32[0]
            pos += ibd::kCheckHeaderSize + checks[pos + 1] + (size_t(checks[pos + 2]) | size_t(checks[pos + 3]) << 8);
        }
    }
    return out;
}

void RunValidation(const std::vector<uint8_t>& block, const std::vector<ibd::SpentOutputEntry>& spent,
                   const std::string& expected, int32_t height, unsigned source) {
    // The input is a mutated block: its proof of work is skipped here (ChainContext), and
    // CheckProofOfWork is run on its own below (it must decide any nBits without crashing).
    ibd::ChainContext context;
    context.skip_proof_of_work = true;
    ibd::BlockValidation v(block.data(), block.size(), spent, expected, height, context);
    const ibd::Block parsed = ibd::ParseBlock(block.data(), block.size());  // it loaded, so it parses
    const std::optional<ibd::RuleFailure> pow = ibd::CheckProofOfWork(parsed);
    if (pow && (pow->reject_reason != "high-hash" || pow->stage != "CheckBlockHeader")) Fail("CheckProofOfWork: not high-hash");
    const uint32_t tx_count = static_cast<uint32_t>(parsed.txs.size());
    uint32_t rounds = 0;
    while (!v.Done()) {
        if (WalkRecords(v.PendingChecks()) != v.PendingCount()) Fail("pending records != PendingCount");
        if (v.PendingOrigins().size() != v.PendingCount()) Fail("pending origins != PendingCount");
        CheckOrigins(v.PendingOrigins(), tx_count);
        if (rounds == 0) {
            bool refused = false;
            try {
                (void)v.Result();
            } catch (const ibd::Error&) {
                refused = true;
            }
            if (!refused) Fail("Result() did not refuse while checks were pending");
        }
        if (++rounds > 100000) Fail("rounds do not end");
        const std::vector<uint8_t> verdicts = Verdicts(v, source);
        const bool done = v.Resolve(verdicts.data(), verdicts.size());
        if (done != v.Done()) Fail("Resolve's return differs from Done()");
    }
    const ibd::BlockValidationResult r = v.Result();
    const size_t records = WalkRecords(r.checks);
    if (records != r.origins.size() || records != r.verdicts.size()) Fail("records, origins and verdicts differ in number");
    if (records != size_t(r.ecdsa_checks) + r.schnorr_checks) Fail("ecdsa + schnorr counts != records");
    CheckOrigins(r.origins, tx_count);
    if (r.tx_count != tx_count) Fail("tx_count differs from the parsed block");
    if (r.rounds != rounds) Fail("rounds differ from the Resolve calls with checks");
    uint32_t inputs = 0, checks = 0;
    for (const auto& [name, c] : r.coverage) {
        if (c.evaluated != c.inputs) Fail("an input was not evaluated to the end");
        inputs += c.inputs;
        checks += c.checks;
    }
    if (inputs != r.inputs) Fail("coverage inputs != inputs");
    if (checks != records) Fail("coverage checks != records");
    // The verdict: rules (block_rules.h) and scripts together.
    if (r.valid != r.reject_reason.empty() || r.valid != r.stage.empty()) Fail("valid disagrees with the reject reason");
    if (r.valid && r.failed_inputs != 0) Fail("valid with a failing input");
    if (!r.valid && (r.tx_index < 0 || r.tx_index >= tx_count || r.byte_offset < 0 || r.error.empty())) {
        Fail("invalid block without a located fault");
    }
    if (!r.valid && r.input_index < 0 && r.output_index < 0 && r.reject_reason != "bad-txns-accumulated-fee-outofrange" &&
        r.reject_reason != "bad-txns-fee-outofrange") {
        Fail("a rule failed without naming the input or output at fault");
    }
    if (!r.script_error.empty() && (r.reject_reason != "mandatory-script-verify-flag-failed" || r.tx_index < 1 ||
                                    r.input_index < 0 || r.failed_inputs == 0)) {
        Fail("script error without a located failing input");
    }
    if (r.valid && (r.fee < 0 || r.fee > ibd::kMaxMoney || r.sigop_cost > 80000)) Fail("valid block with fee or sigops out of range");
    if (r.sigop_cost < 0 || r.subsidy < 0 || r.not_checked.empty()) Fail("sigop cost, subsidy or not_checked out of shape");
    if (Debug()) {
        std::fprintf(stderr, "block %s: %u txs, %zu checks, %u rounds%s%s\n", r.valid ? "valid" : "invalid", r.tx_count,
                     records, r.rounds, r.valid ? "" : ", ", r.error.c_str());
    }
}

void FuzzBlock(uint8_t options, Input& in) {
    const int32_t height = static_cast<int32_t>(in.LE(4));
    size_t block_len = 0;
    const uint8_t* block_ptr = in.Take(static_cast<size_t>(in.LE(4)), block_len);
    std::vector<uint8_t> block(block_ptr, block_ptr + block_len);

    std::vector<ibd::SpentOutputEntry> spent;
    while (in.left() > 0) {
        ibd::SpentOutputEntry e;
        e.out.value = static_cast<int64_t>(in.LE(8));
        e.prevout.n = static_cast<uint32_t>(in.LE(4));
        size_t got = 0;
        const uint8_t* txid = in.Take(32, got);
        std::copy(txid, txid + got, e.prevout.txid.begin());
        const uint8_t* script = in.Take(static_cast<size_t>(in.LE(2)), got);
        e.out.script_pubkey.assign(script, script + got);
        spent.push_back(std::move(e));
    }

    if (options & 0x04) ibd::test::FixUpCommitments(block);
    if (options & 0x08) {
        try {
            const ibd::Block parsed = ibd::ParseBlock(block.data(), block.size());
            size_t next = 0;
            for (size_t t = 1; t < parsed.txs.size(); ++t) {
                for (const ibd::TxIn& txin : parsed.txs[t].vin) {
                    if (next == spent.size()) break;
                    spent[next].prevout = txin.prevout;
                    ++next;
                }
            }
        } catch (const ibd::Error&) {
        }
    }
    std::string expected;
    if ((options & 0x10) && block.size() >= ibd::kBlockHeaderSize) {
        ibd::Hash32 hash;
        ibd::ParseBlockHeader(block.data(), hash);
        expected = ibd::HexEncodeReversed(hash);
        if (options & 0x20) expected[static_cast<size_t>(height) % expected.size()] ^= 0x01;  // '0'<->'1', 'a'->'`'
    }

    try {
        RunValidation(block, spent, expected, height, options >> 6);
    } catch (const ibd::Error& e) {
        // A rule of the stages before ConnectBlock: Core's reason leads the message.
        if (e.stage().empty() != e.reject_reason().empty()) Fail("an Error with a stage but no reject reason, or back");
        if (!e.stage().empty() && e.reason().rfind(e.reject_reason(), 0) != 0) Fail("reject reason does not lead the reason");
        const std::string where = e.where().to_string();
        if (Debug()) std::fprintf(stderr, "block error: %s [%s]\n", e.what(), where.c_str());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    Input in{data, size, 1};
    switch (data[0] & 0x03) {
        case 2: FuzzTransaction(data + 1, size - 1); break;
        case 3: FuzzJson(data + 1, size - 1); break;
        default: FuzzBlock(data[0], in); break;
    }
    return 0;
}
