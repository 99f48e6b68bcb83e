// Blocks as Bitcoin Core's CBlock (primitives/block.h): the 80-byte header, the transactions,
// the block hash and the merkle roots (consensus/merkle.cpp), and the context-free block checks
// the engine relies on (Core's CheckBlock and the witness part of ContextualCheckBlock).
//
// Serialization (network / block.raw):
//   header (CBlockHeader), 80 bytes:
//     0   4   nVersion        int32 LE
//     4   32  hashPrevBlock   internal byte order
//     36  32  hashMerkleRoot  internal byte order
//     68  4   nTime           uint32 LE
//     72  4   nBits           uint32 LE
//     76  4   nNonce          uint32 LE
//   transaction count   CompactSize
//   transactions        each as in transaction.h (BIP144 form when it has witness data)
// Block hash = SHA256d(header), shown byte-reversed (display hex).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "crypto/sha256.h"
#include "primitives/transaction.h"

namespace ibd {

/** Size of a serialized block header. */
constexpr size_t kBlockHeaderSize = 80;

/** Core's CBlockHeader. */
struct BlockHeader {
    int32_t version = 0;
    Hash32 prev_block{};
    Hash32 merkle_root{};
    uint32_t time = 0;
    uint32_t bits = 0;
    uint32_t nonce = 0;
};

/** A parsed block. */
struct Block {
    BlockHeader header;
    Hash32 hash{};          // SHA256d(header), internal byte order
    std::string hash_hex;   // display hex of `hash`
    std::vector<Transaction> txs;
    size_t size = 0;           // serialized size with witnesses
    size_t stripped_size = 0;  // serialized size without witnesses
    /** Core's GetBlockWeight: stripped_size * 3 + size. */
    size_t weight() const { return stripped_size * 3 + size; }
};

/** Parses the 80-byte header at `data` (which must hold at least 80 bytes) and returns it;
 *  `hash` receives SHA256d of those 80 bytes. Never throws. */
BlockHeader ParseBlockHeader(const uint8_t* data, Hash32& hash);

/** Parses a whole block: header, CompactSize transaction count (each transaction at least 10
 *  bytes), the transactions. Throws Error located by byte offset in `data` (plus the block hash
 *  once the header is read, and the tx / input index where one is at fault) for: fewer than 80
 *  bytes, any transaction parse error (ParseTransaction), a transaction count larger than the
 *  transactions the data holds ("transaction count mismatch", at the missing tx's index and the
 *  end of the data), and trailing bytes after the last counted transaction (at tx index = the
 *  count and the offset where that transaction would start). Performs no consensus check (see
 *  CheckBlock). */
Block ParseBlock(const uint8_t* data, size_t len);

/** Core's ComputeMerkleRoot (consensus/merkle.cpp): pairs of hashes are concatenated and
 *  SHA256d-hashed level by level; a level with an odd count duplicates its last hash. Sets
 *  `*mutated` (if given) when some level has two identical adjacent hashes (CVE-2012-2459: a
 *  different transaction list with the same root). Returns all zero for an empty list. */
Hash32 ComputeMerkleRoot(std::vector<Hash32> hashes, bool* mutated = nullptr);

/** Core's BlockMerkleRoot: ComputeMerkleRoot of the txids. */
Hash32 BlockMerkleRoot(const Block& block, bool* mutated = nullptr);

/** Core's BlockWitnessMerkleRoot (BIP141 "Commitment structure"): ComputeMerkleRoot of the
 *  wtxids, with the coinbase's wtxid replaced by 32 zero bytes. */
Hash32 BlockWitnessMerkleRoot(const Block& block);

/** Index of the coinbase output holding the BIP141 witness commitment: the last output whose
 *  scriptPubKey is at least 38 bytes and starts 6a 24 aa 21 a9 ed (OP_RETURN, push 36,
 *  commitment header). -1 when there is none (Core's GetWitnessCommitmentIndex). */
int64_t WitnessCommitmentIndex(const Block& block);

/** Context-free block checks, after Core's CheckBlock and the witness rules of
 *  ContextualCheckBlock, each throwing Error with Core's reject reason and the block hash
 *  (validation/block_check.h adds the stage, and runs the rest of CheckBlock, the sigop limit,
 *  and the rules that need the height: validation/block_rules.h):
 *    "bad-blk-length"           no transactions, or stripped size * 4 > 4,000,000;
 *    "bad-blk-weight"           weight > 4,000,000;
 *    "bad-txnmrklroot"          merkle root of the txids differs from the header's;
 *    "bad-txns-duplicate"       the merkle tree is mutated (CVE-2012-2459);
 *    "bad-cb-missing" / "bad-cb-multiple"  the first and only the first tx is a coinbase;
 *    CheckTransaction's reasons, with the tx index;
 *    "unexpected-witness"       witness data without a witness commitment;
 *    "bad-witness-nonce-size" / "bad-witness-merkle-match"  BIP141 commitment check, done when
 *                               a commitment is present and some transaction has witness data.
 *  The last three are ContextualCheckBlock's and need segwit active: with
 *  `segwit_active` false (below its height) they are skipped, and witness data is
 *  validation/block_rules.h's "unexpected-witness" by height, as Core reports it.
 *  Not here: the legacy sigop limit (it needs the script code: validation/block_rules.h
 *  CheckLegacySigOps), the rules by height (BIP34, versions, finality, the commitment of a
 *  block without witness data: validation/block_rules.h), and what needs the chain (proof of
 *  work, timestamps: validation/block_rules.h RulesNotChecked). */
void CheckBlock(const Block& block, bool segwit_active = true);

}  // namespace ibd
