// The native anchor benchmark groups, each registered with Google Benchmark from the loaded
// fixture blocks (validated_blocks.h); blocks with an `error` are left out. Each Register* function
// throws std::runtime_error when its sample cannot be built or does not reproduce the engine's
// verdicts (a benchmark on wrong data is worse than none).
#pragma once

#include <vector>

#include "validated_blocks.h"

namespace ibd::bench {

/** BM_EcdsaVerify/secp256k1, BM_SchnorrVerify/secp256k1, BM_VerifyBatch/{ecdsa,schnorr}/{1,16,256,4096},
 *  BM_EcmultComputeTables (verify_bench.cpp). */
void RegisterVerifyBenchmarks(const std::vector<FixtureBlock>& blocks);

/** BM_Sighash/{legacy,bip143,bip341}, BM_SighashPrecompute/{bip143,bip341} (sighash_bench.cpp). */
void RegisterSighashBenchmarks(const std::vector<FixtureBlock>& blocks);

/** BM_ValidateBlock/<height>, one per fixture block (block_bench.cpp). */
void RegisterBlockBenchmarks(const std::vector<FixtureBlock>& blocks);

/** BM_Sha256/{64,1000000} and BM_ValidateSynthetic/legacy_5000in, the SYNTHETIC legacy stress
 *  block (quadratic_bench.cpp; needs no fixture). */
void RegisterQuadraticBenchmarks();

}  // namespace ibd::bench
