// Signature operation counting of one script, as Bitcoin Core counts them for the block sigop
// limit: CScript::GetSigOpCount (script/script.cpp, both overloads) and CountWitnessSigOps
// (script/interpreter.cpp). The per-transaction sums and the block limit are in
// validation/tx_verify.h and validation/block_rules.h.
#pragma once

#include <cstdint>
#include <vector>

namespace ibd {

/** Core's CScript::GetSigOpCount(bool fAccurate): walks `script` opcode by opcode (stopping
 *  where an opcode does not parse) and counts 1 per OP_CHECKSIG / OP_CHECKSIGVERIFY and, per
 *  OP_CHECKMULTISIG / OP_CHECKMULTISIGVERIFY, the key count n when `accurate` and the opcode
 *  before it is OP_1..OP_16, else 20 (MAX_PUBKEYS_PER_MULTISIG). The legacy count uses
 *  accurate = false; P2SH redeem scripts and P2WSH witness scripts accurate = true. */
uint32_t GetSigOpCount(const std::vector<uint8_t>& script, bool accurate);

/** Core's CScript::GetSigOpCount(const CScript& scriptSig) for a P2SH `script_pubkey`: the
 *  accurate count of the redeem script, i.e. the last push of `script_sig`. 0 when
 *  `script_sig` has an opcode that does not parse or a non-push opcode (above OP_16). For a
 *  `script_pubkey` that is not P2SH: GetSigOpCount(script_pubkey, true). */
uint32_t GetP2SHScriptSigOpCount(const std::vector<uint8_t>& script_pubkey, const std::vector<uint8_t>& script_sig);

/** Core's CountWitnessSigOps (script/interpreter.cpp): the witness sigops of one input, 0
 *  unless `flags` (ScriptVerifyFlag bits, interpreter.h) has SCRIPT_VERIFY_WITNESS. For a
 *  version-0 witness program, native (`script_pubkey`) or P2SH-wrapped (the last push of a
 *  push-only `script_sig` spending a P2SH `script_pubkey`): 1 for a 20-byte program (P2WPKH),
 *  the accurate count of the witness script (the last witness item) for a 32-byte one (P2WSH)
 *  with a non-empty witness; 0 for every other program (taproot's budget is per input, BIP342,
 *  and not part of the block limit). Not weighted: witness sigops cost 1 each. */
uint32_t CountWitnessSigOps(const std::vector<uint8_t>& script_sig, const std::vector<uint8_t>& script_pubkey,
                            const std::vector<std::vector<uint8_t>>& witness, uint32_t flags);

}  // namespace ibd
