// A SYNTHETIC stress block for the legacy sighash's quadratic cost (issue 12, part 6): one
// coinbase and one large legacy transaction whose P2PKH inputs spend synthetic outputs, every
// input signed for real (libsecp256k1, RFC 6979 nonces) over its SIGHASH_ALL legacy sighash, so
// that the engine's verdict is `valid`. The class of mainnet block 364,292, whose single
// 999,657-byte transaction has 5,569 inputs and made Core hash about 1.2 GB: each legacy
// sighash hashes a copy of the whole transaction (Core's SignatureHash, SigVersion::BASE), so
// n inputs cost O(n * size). Never a real block: benchmarks label its figures "synthetic" and
// keep them apart from the fixture blocks' figures.
//
// Deterministic: the same parameters give the same bytes (keys, prevouts and output scripts are
// SHA-256 of fixed tags and indices; signatures use RFC 6979 nonces).
//
// Shared by the native tests and the native benchmarks (bench/native compiles this file, as
// fuzz/ compiles block_mutation.cpp), so it uses the engine's headers, libsecp256k1's and
// block_mutation.h only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "crypto/sha256.h"
#include "validation/spent_outputs.h"

namespace ibd::test {

/** The shape of the synthetic transaction. The defaults give a block of about 1 MB (995 KB):
 *  5,000 inputs of 180 bytes (uncompressed keys, as in 2015) and 2,750 P2PKH outputs. */
struct SyntheticLegacyParams {
    uint32_t inputs = 5000;
    uint32_t outputs = 2750;
    /** 33-byte keys (P2PKH inputs of about 148 bytes) instead of 65-byte ones (about 180). */
    bool compressed_keys = false;
};

/** The generated block and what validating it needs. */
struct SyntheticLegacyBlock {
    std::vector<uint8_t> block;  // network serialization: header, coinbase, the synthetic tx
    std::vector<SpentOutputEntry> spent;  // one per input of the synthetic tx, in input order
    int32_t height = 0;          // kSyntheticLegacyHeight
    std::string hash_hex;        // the block hash (display hex)
    size_t tx_bytes = 0;         // serialized size of the synthetic transaction
    /** The SIGHASH_ALL legacy sighash each input's signature signs, computed by the generator
     *  itself (its own serialization of Core's transaction copy, not SignatureHashLegacy), so
     *  that tests can compare the engine's against an independent computation. */
    std::vector<Hash32> sighashes;
};

/** The height the block claims (block 364,292's, so BIP34, BIP66 strict DER and P2SH apply; its
 *  subsidy is 25 BTC). Its header carries no real proof of work: validate it with
 *  ChainContext::skip_proof_of_work (wasm: options.skipProofOfWork). */
inline constexpr int32_t kSyntheticLegacyHeight = 364292;

/** Largest serialized block the generator makes: Core's MAX_BLOCK_WEIGHT / 4 for a block with
 *  no witness data. */
inline constexpr size_t kSyntheticMaxBlockBytes = 1000000;

/** Builds the block. Every input i spends output 0 of txid SHA256d("ibd-wasm synthetic prevout"
 *  || LE32(i)), a P2PKH output of 1,000,000 sat locked to key i (secret key SHA-256("ibd-wasm
 *  synthetic key" || LE32(i)), re-hashed until valid); the outputs share the inputs' sum less a
 *  fee of 10,000 sat per input; the coinbase claims the subsidy plus that fee.
 *  Throws std::invalid_argument naming the parameter for inputs or outputs of 0, more than
 *  25,000 inputs or 30,000 outputs, or a block that would exceed kSyntheticMaxBlockBytes. */
SyntheticLegacyBlock MakeSyntheticLegacyBlock(const SyntheticLegacyParams& params);

}  // namespace ibd::test
