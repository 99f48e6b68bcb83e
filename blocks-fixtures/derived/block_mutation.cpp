// Implementation of block_mutation.h.
#include "derived/block_mutation.h"

#include <algorithm>
#include <iterator>

#include "crypto/sha256.h"
#include "primitives/serialize.h"
#include "util/error.h"

namespace ibd::test {

std::vector<uint8_t> SerializeTransaction(const Transaction& tx, bool with_witness) {
    std::vector<uint8_t> out;
    VectorSink s{out};
    WriteLE32(s, static_cast<uint32_t>(tx.version));
    const bool witness = with_witness && tx.HasWitness();
    if (witness) {
        WriteU8(s, 0x00);  // marker
        WriteU8(s, 0x01);  // flag
    }
    WriteCompactSize(s, tx.vin.size());
    for (const TxIn& in : tx.vin) {
        SerializeOutPoint(s, in.prevout);
        WriteVarBytes(s, in.script_sig);
        WriteLE32(s, in.sequence);
    }
    WriteCompactSize(s, tx.vout.size());
    for (const TxOut& o : tx.vout) SerializeTxOut(s, o.value, o.script_pubkey);
    if (witness) {
        for (const TxIn& in : tx.vin) {
            WriteCompactSize(s, in.witness.size());
            for (const std::vector<uint8_t>& item : in.witness) WriteVarBytes(s, item);
        }
    }
    WriteLE32(s, tx.lock_time);
    return out;
}

std::vector<uint8_t> SerializeBlock(const Block& block) {
    std::vector<uint8_t> out;
    VectorSink s{out};
    const BlockHeader& h = block.header;
    WriteLE32(s, static_cast<uint32_t>(h.version));
    s.Write(h.prev_block.data(), h.prev_block.size());
    s.Write(h.merkle_root.data(), h.merkle_root.size());
    WriteLE32(s, h.time);
    WriteLE32(s, h.bits);
    WriteLE32(s, h.nonce);
    WriteCompactSize(s, block.txs.size());
    for (const Transaction& tx : block.txs) {
        const std::vector<uint8_t> bytes = SerializeTransaction(tx);
        out.insert(out.end(), bytes.begin(), bytes.end());
    }
    FixUpCommitments(out);
    return out;
}

void FixUpCommitments(std::vector<uint8_t>& block) {
    try {
        Block parsed = ParseBlock(block.data(), block.size());
        if (parsed.txs.empty()) return;
        const Transaction& cb = parsed.txs[0];
        const int64_t commitment = WitnessCommitmentIndex(parsed);
        if (commitment >= 0 && !cb.vin.empty() && cb.vin[0].witness.size() == 1 && cb.vin[0].witness[0].size() == 32) {
            // BIP141: commitment = SHA256d(witness root || witness reserved value), written after
            // the 6-byte header 6a 24 aa 21 a9 ed of the last output carrying it; its bytes are
            // found in the coinbase's outputs, which come before its witness.
            uint8_t buf[64];
            const Hash32 root = BlockWitnessMerkleRoot(parsed);
            std::copy(root.begin(), root.end(), buf);
            std::copy(cb.vin[0].witness[0].begin(), cb.vin[0].witness[0].end(), buf + 32);
            const Hash32 value = Sha256d(buf, 64);
            static const uint8_t kHeader[6] = {0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed};
            const auto begin = block.begin() + static_cast<std::ptrdiff_t>(cb.offset);
            const auto end = begin + static_cast<std::ptrdiff_t>(cb.size);
            const auto at = std::find_end(begin, end, kHeader, kHeader + 6);
            if (at != end && end - at >= 38) std::copy(value.begin(), value.end(), at + 6);
            parsed = ParseBlock(block.data(), block.size());
        }
        const Hash32 merkle = BlockMerkleRoot(parsed);
        std::copy(merkle.begin(), merkle.end(), block.begin() + 36);
    } catch (const Error&) {
    }
}

}  // namespace ibd::test
