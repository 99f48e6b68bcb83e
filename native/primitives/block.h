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
/** Offsets of the header fields the block rules point at (the layout above): a failure of the
 *  rule names the field by its byte offset in the block. */
constexpr int64_t kHeaderVersionOffset = 0;
constexpr int64_t kHeaderPrevBlockOffset = 4;
constexpr int64_t kHeaderMerkleRootOffset = 36;
constexpr int64_t kHeaderTimeOffset = 68;
constexpr int64_t kHeaderBitsOffset = 72;

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
 *  CheckBlock).
 *
 *  Only the transactions with index in [full_begin, full_end) are parsed in full; the others
 *  are skimmed (SkimTransaction, transaction.h: their shape only, no scripts, witnesses or
 *  txids), with the same errors, so that a range of the block (BlockScope,
 *  validation/block_validation.h) does not pay for the transactions it does not evaluate. */
Block ParseBlock(const uint8_t* data, size_t len, size_t full_begin = 0, size_t full_end = SIZE_MAX);

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

/** Core's CheckBlock (validation.cpp) after CheckBlockHeader and before the legacy sigop limit,
 *  in Core's order, throwing Error with Core's reject reason and the block hash (and the tx
 *  index and byte offset where one tx is at fault):
 *    "bad-txnmrklroot"          merkle root of the txids differs from the header's (byte offset 36);
 *    "bad-txns-duplicate"       the merkle tree is mutated (CVE-2012-2459; at the second of the
 *                               first pair of identical transactions, when the leaves are such);
 *    "bad-blk-length"           no transactions, or tx count * 4 or stripped size * 4 > 4,000,000;
 *    "bad-cb-missing"           the first tx is not a coinbase;
 *    "bad-cb-multiple"          a later tx is (the first such);
 *    CheckTransaction's reasons, for the first tx that fails them.
 *  The proof of work and the legacy sigop limit are validation/block_rules.h's (the latter
 *  needs the script code); the rules of ContextualCheckBlock are CheckWitnessMalleation and
 *  CheckBlockWeight below, which validation/block_rules.h runs in Core's order. */
void CheckBlock(const Block& block);

/** Core's CheckWitnessMalleation (validation.cpp, BIP141 "Commitment structure"), for a block
 *  that passed CheckBlock. When `expect_witness_commitment` (segwit active) and the coinbase
 *  has a commitment (WitnessCommitmentIndex), the coinbase witness must be one 32-byte item
 *  ("bad-witness-nonce-size", tx 0 input 0) and SHA256d(witness merkle root || that item) must
 *  equal the 32 bytes after the commitment header ("bad-witness-merkle-match", tx 0 and the
 *  commitment's output). Otherwise no tx may have witness data ("unexpected-witness", the
 *  first tx that has). Throws Error with the block hash. */
void CheckWitnessMalleation(const Block& block, bool expect_witness_commitment);

/** ContextualCheckBlock's last rule: weight (BIP141: stripped size * 3 + total size) at most
 *  4,000,000 weight units, else Error "bad-blk-weight" with the block hash. */
void CheckBlockWeight(const Block& block);

}  // namespace ibd
