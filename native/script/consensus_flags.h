// Height-activated consensus rules of mainnet: the activation heights, the script verification
// flags of a block (Core's GetBlockScriptFlags) and the BIP34 coinbase height encoding.
#pragma once

#include <cstdint>
#include <vector>

#include "crypto/sha256.h"

namespace ibd {

/** Mainnet activation heights (Core's consensus.BIP34Height, BIP66Height, BIP65Height,
 *  CSVHeight, SegwitHeight; kernel/chainparams.cpp). From kBip34Height the coinbase scriptSig
 *  starts with the block height (ParseAndCheckBlock, validation/block_check.h checks it). */
constexpr int32_t kBip34Height = 227931;
constexpr int32_t kBip66Height = 363725;   // SCRIPT_VERIFY_DERSIG
constexpr int32_t kBip65Height = 388381;   // SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY
constexpr int32_t kCsvHeight = 419328;     // SCRIPT_VERIFY_CHECKSEQUENCEVERIFY
constexpr int32_t kSegwitHeight = 481824;  // SCRIPT_VERIFY_NULLDUMMY

/** Core's GetBlockScriptFlags (validation.cpp) as ScriptVerifyFlag bits (interpreter.h):
 *  P2SH | WITNESS | TAPROOT for every block except Core's script_flag_exceptions
 *  (kernel/chainparams.cpp, mainnet):
 *    00000000000002dc756eebf4f49723ed8d30cc28a5f108eb94b1ba88ac4f9c22  (BIP16 exception) none
 *    0000000000000000000f14c35b2d841e986ab5441de8c585d5ffe55ea1e395ad  (taproot exception)
 *                                                                      P2SH | WITNESS
 *  then DERSIG from kBip66Height, CHECKLOCKTIMEVERIFY from kBip65Height, CHECKSEQUENCEVERIFY
 *  from kCsvHeight and NULLDUMMY from kSegwitHeight, exception or not. */
uint32_t GetBlockScriptVerifyFlags(const Hash32& block_hash, int32_t height);

/** Core's `CScript() << height` (script.h push_int64) for height >= 0: OP_0 for 0, OP_1..OP_16
 *  for 1..16, otherwise a push of the minimal little-endian CScriptNum encoding (a 0x00 byte
 *  appended when the top byte has its 0x80 bit set). BIP34 requires the coinbase scriptSig to
 *  start with these bytes. */
std::vector<uint8_t> SerializeScriptHeight(int32_t height);

}  // namespace ibd
