// Implementation of block.h.
#include "primitives/block.h"

#include <cstring>

#include "primitives/hex.h"

namespace ibd {

namespace {

// Smallest serialized transaction: nVersion, empty vin, flag byte 0, nLockTime (10 bytes).
constexpr size_t kMinTxSize = 10;
constexpr size_t kMaxBlockWeight = 4000000;  // Core's MAX_BLOCK_WEIGHT
constexpr size_t kWitnessScaleFactor = 4;    // Core's WITNESS_SCALE_FACTOR

size_t CompactSizeLen(uint64_t n) { return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffffu ? 5 : 9; }

}  // namespace

BlockHeader ParseBlockHeader(const uint8_t* data, Hash32& hash) {
    BlockHeader h;
    h.version = static_cast<int32_t>(LoadLE32(data));
    std::memcpy(h.prev_block.data(), data + 4, 32);
    std::memcpy(h.merkle_root.data(), data + 36, 32);
    h.time = LoadLE32(data + 68);
    h.bits = LoadLE32(data + 72);
    h.nonce = LoadLE32(data + 76);
    hash = Sha256d(data, kBlockHeaderSize);
    return h;
}

Block ParseBlock(const uint8_t* data, size_t len, size_t full_begin, size_t full_end) {
    Reader r(data, len);
    r.Need(kBlockHeaderSize, "block header");
    Block block;
    block.header = ParseBlockHeader(data, block.hash);
    block.hash_hex = HexEncodeReversed(block.hash);
    r.ReadBytes(kBlockHeaderSize, "block header");

    Location at_block;
    at_block.block_hash = block.hash_hex;
    size_t count = 0;
    try {
        count = r.ReadCount("transaction count", kMinTxSize);
    } catch (const Error& e) {
        throw e.with_context(at_block);
    }
    block.stripped_size = kBlockHeaderSize + CompactSizeLen(count);
    block.txs.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        if (r.empty()) {
            // The count promises more transactions than the data holds.
            Location at = at_block;
            at.tx_index = static_cast<int64_t>(i);
            at.byte_offset = static_cast<int64_t>(r.offset());
            throw Error("transaction count mismatch: the count says " + std::to_string(count) +
                            " transactions but the block's data ends after " + std::to_string(i),
                        at);
        }
        try {
            block.txs.push_back(i >= full_begin && i < full_end ? ParseTransaction(r) : SkimTransaction(r));
        } catch (const Error& e) {
            Location at_tx = at_block;
            at_tx.tx_index = static_cast<int64_t>(i);
            throw e.with_context(at_tx);
        }
        block.stripped_size += block.txs.back().stripped_size;
    }
    if (!r.empty()) {
        // Either garbage after the block or more transactions than the count says: the bytes
        // at this offset would be transaction `count`.
        Location at = at_block;
        at.tx_index = static_cast<int64_t>(count);
        at.byte_offset = static_cast<int64_t>(r.offset());
        throw Error(std::to_string(r.remaining()) + " trailing bytes after the last transaction: the transaction count says " +
                        std::to_string(count) + " but data follows (transaction count mismatch or trailing garbage)",
                    at);
    }
    block.size = len;
    return block;
}

Hash32 ComputeMerkleRoot(std::vector<Hash32> hashes, bool* mutated) {
    bool mutation = false;
    while (hashes.size() > 1) {
        // Two identical adjacent hashes at any level: the same root has a shorter transaction
        // list (CVE-2012-2459).
        for (size_t pos = 0; pos + 1 < hashes.size(); pos += 2) {
            if (hashes[pos] == hashes[pos + 1]) mutation = true;
        }
        if (hashes.size() & 1) hashes.push_back(hashes.back());
        uint8_t pair[64];
        for (size_t i = 0; i < hashes.size() / 2; ++i) {
            std::memcpy(pair, hashes[2 * i].data(), 32);
            std::memcpy(pair + 32, hashes[2 * i + 1].data(), 32);
            hashes[i] = Sha256d(pair, sizeof(pair));
        }
        hashes.resize(hashes.size() / 2);
    }
    if (mutated) *mutated = mutation;
    if (hashes.empty()) return Hash32{};
    return hashes[0];
}

Hash32 BlockMerkleRoot(const Block& block, bool* mutated) {
    std::vector<Hash32> leaves;
    leaves.reserve(block.txs.size());
    for (const Transaction& tx : block.txs) leaves.push_back(tx.txid);
    return ComputeMerkleRoot(std::move(leaves), mutated);
}

Hash32 BlockWitnessMerkleRoot(const Block& block) {
    std::vector<Hash32> leaves;
    leaves.reserve(block.txs.size());
    for (size_t i = 0; i < block.txs.size(); ++i) leaves.push_back(i == 0 ? Hash32{} : block.txs[i].wtxid);
    return ComputeMerkleRoot(std::move(leaves), nullptr);
}

int64_t WitnessCommitmentIndex(const Block& block) {
    static const uint8_t kHeader[6] = {0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed};
    int64_t index = -1;
    if (block.txs.empty()) return index;
    const std::vector<TxOut>& outs = block.txs[0].vout;
    for (size_t o = 0; o < outs.size(); ++o) {
        const std::vector<uint8_t>& spk = outs[o].script_pubkey;
        if (spk.size() >= 38 && std::memcmp(spk.data(), kHeader, sizeof(kHeader)) == 0) {
            index = static_cast<int64_t>(o);
        }
    }
    return index;
}

void CheckBlock(const Block& block) {
    Location at;
    at.block_hash = block.hash_hex;
    bool mutated = false;
    const Hash32 root = BlockMerkleRoot(block, &mutated);
    if (root != block.header.merkle_root) {
        at.byte_offset = kHeaderMerkleRootOffset;
        throw Error("bad-txnmrklroot: merkle root of the txids " + HexEncodeReversed(root) +
                        " differs from the header's " + HexEncodeReversed(block.header.merkle_root),
                    at);
    }
    if (mutated) {
        // Name the duplicate when the leaves are the mutated level: the second of the first pair
        // (at an even and the next odd index) of identical transactions.
        for (size_t i = 1; i < block.txs.size(); i += 2) {
            if (block.txs[i].txid == block.txs[i - 1].txid) {
                at.tx_index = static_cast<int64_t>(i);
                at.byte_offset = static_cast<int64_t>(block.txs[i].offset);
                break;
            }
        }
        throw Error("bad-txns-duplicate: merkle tree mutated (CVE-2012-2459)", at);
    }

    if (block.txs.empty() || block.txs.size() * kWitnessScaleFactor > kMaxBlockWeight ||
        block.stripped_size * kWitnessScaleFactor > kMaxBlockWeight) {
        throw Error("bad-blk-length", at);
    }
    const auto tx_location = [&](size_t i) {
        Location at_tx = at;
        at_tx.tx_index = static_cast<int64_t>(i);
        at_tx.byte_offset = static_cast<int64_t>(block.txs[i].offset);
        return at_tx;
    };
    if (!block.txs[0].IsCoinBase()) throw Error("bad-cb-missing: first transaction is not a coinbase", tx_location(0));
    for (size_t i = 1; i < block.txs.size(); ++i) {
        if (block.txs[i].IsCoinBase()) throw Error("bad-cb-multiple: more than one coinbase", tx_location(i));
    }
    for (size_t i = 0; i < block.txs.size(); ++i) {
        try {
            CheckTransaction(block.txs[i]);
        } catch (const Error& e) {
            throw e.with_context(tx_location(i));
        }
    }
}

void CheckWitnessMalleation(const Block& block, bool expect_witness_commitment) {
    Location at;
    at.block_hash = block.hash_hex;
    const int64_t commit = expect_witness_commitment ? WitnessCommitmentIndex(block) : -1;
    if (commit >= 0) {
        Location at_cb = at;
        at_cb.tx_index = 0;
        at_cb.input_index = 0;
        at_cb.byte_offset = static_cast<int64_t>(block.txs[0].vin[0].offset);
        const std::vector<std::vector<uint8_t>>& nonce = block.txs[0].vin[0].witness;  // CheckBlock: a coinbase
        if (nonce.size() != 1 || nonce[0].size() != 32) {
            throw Error("bad-witness-nonce-size: the coinbase witness must be one 32-byte item (the witness reserved "
                        "value), it has " + std::to_string(nonce.size()) + " items",
                        at_cb);
        }
        // BIP141: commitment = SHA256d(witness root || witness reserved value).
        const Hash32 witness_root = BlockWitnessMerkleRoot(block);
        uint8_t buf[64];
        std::memcpy(buf, witness_root.data(), 32);
        std::memcpy(buf + 32, nonce[0].data(), 32);
        const Hash32 commitment = Sha256d(buf, sizeof(buf));
        const TxOut& out = block.txs[0].vout[static_cast<size_t>(commit)];
        if (std::memcmp(commitment.data(), out.script_pubkey.data() + 6, 32) != 0) {
            Location at_out = at;
            at_out.tx_index = 0;
            at_out.output_index = commit;
            at_out.byte_offset = static_cast<int64_t>(out.offset);
            throw Error("bad-witness-merkle-match: witness commitment does not match the wtxids", at_out);
        }
        return;
    }
    for (size_t i = 0; i < block.txs.size(); ++i) {
        if (!block.txs[i].HasWitness()) continue;
        Location at_tx = at;
        at_tx.tx_index = static_cast<int64_t>(i);
        at_tx.byte_offset = static_cast<int64_t>(block.txs[i].offset);
        throw Error(std::string("unexpected-witness: witness data in a block ") +
                        (expect_witness_commitment ? "without a witness commitment" : "below segwit's activation"),
                    at_tx);
    }
}

void CheckBlockWeight(const Block& block) {
    if (block.weight() <= kMaxBlockWeight) return;
    Location at;
    at.block_hash = block.hash_hex;
    throw Error("bad-blk-weight: weight " + std::to_string(block.weight()) + " above " + std::to_string(kMaxBlockWeight), at);
}

}  // namespace ibd
