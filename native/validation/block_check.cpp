// Implementation of ParseAndCheckBlock (block_check.h): parse, check, align the spent outputs.
#include "validation/block_check.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "primitives/block.h"
#include "primitives/hex.h"
#include "script/consensus_flags.h"
#include "util/error.h"
#include "validation/block_rules.h"

namespace ibd {

namespace {

std::string ToLower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/** The Core function holding the check behind a reason CheckBlock (primitives/block.h) throws:
 *  the weight and witness rules are ContextualCheckBlock's, the rest CheckBlock's. */
const char* StageOfCheckBlockReason(const std::string& reason) {
    for (const char* contextual : {"bad-blk-weight", "unexpected-witness", "bad-witness-nonce-size", "bad-witness-merkle-match"}) {
        if (reason.rfind(contextual, 0) == 0) return "ContextualCheckBlock";
    }
    return "CheckBlock";
}

void ThrowIf(const std::optional<RuleFailure>& failure, const Location& at_block) {
    if (!failure) return;
    RuleFailure f = *failure;
    if (f.where.block_hash.empty()) f.where.block_hash = at_block.block_hash;
    throw Error(f);
}

}  // namespace

Block ParseAndCheckBlock(const uint8_t* block_raw, size_t block_len, const std::vector<SpentOutputEntry>& spent,
                         const std::string& expected_hash_hex, int32_t height, const ChainContext& context,
                         std::vector<std::vector<const SpentOutput*>>& spent_by_tx) {
    Location at_block;
    if (height < 0) throw Error("block height is negative: " + std::to_string(height), at_block);
    // The expected hash is compared before anything else is parsed, so that a wrong file pair
    // is reported as such rather than as whatever parse error its bytes produce.
    if (!expected_hash_hex.empty()) {
        Hash32 expected;
        if (!TryParseHashDisplayHex(expected_hash_hex, expected)) {
            throw Error("expected block hash is not 64 hex digits: '" + expected_hash_hex + "'", at_block);
        }
        if (block_len >= kBlockHeaderSize) {
            Hash32 hash;
            ParseBlockHeader(block_raw, hash);
            if (hash != expected) {
                at_block.block_hash = HexEncodeReversed(hash);
                throw Error("block hash mismatch: expected " + ToLower(expected_hash_hex) + ", header hashes to " +
                                at_block.block_hash,
                            at_block);
            }
        }
    }

    const Block block = ParseBlock(block_raw, block_len);
    at_block.block_hash = block.hash_hex;
    // CheckBlock starts with CheckBlockHeader: the proof of work.
    if (!context.skip_proof_of_work) ThrowIf(CheckProofOfWork(block), at_block);
    try {
        CheckBlock(block, height >= kSegwitHeight);  // below it, witness data is unexpected-witness
    } catch (const Error& e) {
        throw e.with_stage(StageOfCheckBlockReason(e.reason()));
    }
    ThrowIf(CheckLegacySigOps(block), at_block);

    // BIP34 (Core's ContextualCheckBlock): the coinbase scriptSig starts with CScript() << height.
    if (height >= kBip34Height) {
        const std::vector<uint8_t> expect = SerializeScriptHeight(height);
        const TxIn& cb_in = block.txs[0].vin[0];  // CheckBlock: txs[0] is a coinbase, one input
        if (cb_in.script_sig.size() < expect.size() ||
            !std::equal(expect.begin(), expect.end(), cb_in.script_sig.begin())) {
            Location at = at_block;
            at.tx_index = 0;
            at.input_index = 0;
            at.byte_offset = static_cast<int64_t>(cb_in.offset);
            const size_t shown = std::min<size_t>(cb_in.script_sig.size(), 8);
            throw Error("bad-cb-height: block " + block.hash_hex + " given height " + std::to_string(height) +
                            " (BIP34 active from " + std::to_string(kBip34Height) +
                            ") but its coinbase scriptSig does not start with " + HexEncode(expect) +
                            " (it starts with " + HexEncode(cb_in.script_sig.data(), shown) + ")",
                        at)
                .with_stage("ContextualCheckBlock");
        }
    }
    // After the BIP34 cross-check (Core checks the header first), so that a wrong height is
    // named as such rather than as the version it would require.
    ThrowIf(CheckContextualHeader(block, height, context), at_block);
    ThrowIf(CheckContextualBlock(block, height, context), at_block);

    spent_by_tx.assign(block.txs.size(), {});
    size_t next = 0;  // index of the next unused entry of `spent`
    for (size_t t = 1; t < block.txs.size(); ++t) {
        const Transaction& tx = block.txs[t];
        std::vector<const SpentOutput*>& tx_spent = spent_by_tx[t];
        for (size_t i = 0; i < tx.vin.size(); ++i, ++next) {
            Location at = at_block;
            at.tx_index = static_cast<int64_t>(t);
            at.input_index = static_cast<int64_t>(i);
            at.byte_offset = static_cast<int64_t>(tx.vin[i].offset);
            if (next >= spent.size()) {
                throw Error("spent outputs list too short: " + std::to_string(spent.size()) +
                                " entries, no entry for this input",
                            at);
            }
            const SpentOutputEntry& entry = spent[next];
            const std::string prevout_txid = HexEncodeReversed(tx.vin[i].prevout.txid);
            if (ToLower(entry.txid_hex) != prevout_txid || entry.vout != tx.vin[i].prevout.n) {
                throw Error("spent output entry " + std::to_string(next) + " is for outpoint " + entry.txid_hex + ":" +
                                std::to_string(entry.vout) + " but the input spends " + prevout_txid + ":" +
                                std::to_string(tx.vin[i].prevout.n),
                            at);
            }
            tx_spent.push_back(&entry.out);
        }
    }
    if (next != spent.size()) {
        throw Error("spent outputs list too long: " + std::to_string(spent.size()) + " entries for " +
                        std::to_string(next) + " non-coinbase inputs",
                    at_block);
    }
    return block;
}

}  // namespace ibd
