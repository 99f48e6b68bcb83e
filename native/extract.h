// Signature extraction: for each input, recognise what the spent scriptPubKey and the input's
// scriptSig / witness ask for, compute the sighash, and emit check records (check_buffer.h).
//
// Supported spends (name in BlockChecks::inputs_by_type):
//   "p2pk"          <33|65-byte key> OP_CHECKSIG; scriptSig pushes the signature (top of stack)
//   "p2pkh"         OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG; scriptSig pushes
//                   signature then key (the top two stack elements); legacy sighash
//   "p2wpkh"        OP_0 <20>; witness [signature, key]; BIP143 sighash
//   "p2sh-p2wpkh"   OP_HASH160 <20> OP_EQUAL; scriptSig is exactly one push of 00 14 <20>;
//                   witness as p2wpkh (BIP141 "P2WPKH nested in BIP16 P2SH")
//   "p2tr-keypath"  OP_1 <32>; witness of one element after removing the annex (BIP341
//                   "Script validation rules"); BIP341 sighash; BIP340 signature
// Every other input is counted in BlockChecks::unsupported_by_type, never dropped:
//   "empty" (empty scriptPubKey), "multisig" (bare), "p2sh" (non-witness redeem script),
//   "p2sh-p2wsh", "p2wsh", "p2tr-scriptpath", "witness-unknown" / "p2sh-witness-unknown"
//   (witness versions and lengths with no rules yet: spendable without a signature),
//   "p2pk-nonpush-scriptsig" / "p2pkh-nonpush-scriptsig" (a scriptSig with non-push opcodes,
//   legal before BIP62 policy, needs the interpreter), "nonstandard" (any other scriptPubKey),
//   "p2sh-unenforced" / "witness-unenforced" / "p2tr-unenforced" (the block is one of Core's
//   script_flag_exceptions and the rule does not apply).
//
// Errors. An input that fails its script whatever the signatures say (a key or redeem script
// that does not match its hash, a scriptSig or witness without the elements the template pops,
// a Schnorr signature of the wrong size or hash_type, witness data where none is allowed, ...)
// makes the block invalid: ClassifyInput throws Error with Core's ScriptError name in the
// reason, and the extraction stops there. An invalid signature is not an error: its record is
// emitted and verifies kInvalid (an empty ECDSA signature gives a record with sig_len 0 and a
// zero msg32; a key longer than 255 bytes gives pubkey_len 0).
//
// BIP66 (ScriptFlags::dersig): a non-empty ECDSA signature of a p2pk / p2pkh / p2wpkh /
// p2sh-p2wpkh input that is not strict DER (IsValidSignatureEncoding, ecdsa_lax_der.h) fails
// its CHECKSIG with SCRIPT_ERR_SIG_DER: ExtractTransactionChecks throws Error whose reason names
// SCRIPT_ERR_SIG_DER, the tx index and the input index. Signatures of unsupported inputs (bare
// or P2SH multisig, p2wsh, ...) are not looked at: the engine does not evaluate those scripts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "check_buffer.h"
#include "engine.h"
#include "interpreter.h"
#include "sha256.h"
#include "transaction.h"

namespace ibd {

/** Mainnet activation heights (Core's consensus.BIP34Height / BIP66Height, kernel/chainparams.cpp):
 *  from kBip34Height the coinbase scriptSig starts with the block height (ExtractBlockChecks
 *  checks it); from kBip66Height SCRIPT_VERIFY_DERSIG applies. */
constexpr int32_t kBip34Height = 227931;
constexpr int32_t kBip66Height = 363725;

/** Which consensus script rules apply to a block (Core's GetBlockScriptFlags, the parts that
 *  change what a signature check is). Core enables P2SH, WITNESS and TAPROOT for every block
 *  except its script_flag_exceptions (kernel/chainparams.cpp, mainnet):
 *    00000000000002dc756eebf4f49723ed8d30cc28a5f108eb94b1ba88ac4f9c22  (BIP16 exception) none
 *    0000000000000000000f14c35b2d841e986ab5441de8c585d5ffe55ea1e395ad  (taproot exception)
 *                                                                      P2SH and WITNESS only
 *  and then adds DERSIG (BIP66) from height kBip66Height, exception or not. Under DERSIG every
 *  non-empty ECDSA signature of a supported input must pass IsValidSignatureEncoding
 *  (ecdsa_lax_der.h) or the block is invalid (SCRIPT_ERR_SIG_DER); before it, records are
 *  verified with Core's lax DER parser either way. A default ScriptFlags is a modern block
 *  (all four rules). */
struct ScriptFlags {
    bool p2sh = true;
    bool witness = true;
    bool taproot = true;
    bool dersig = true;
};
ScriptFlags GetBlockScriptFlags(const Hash32& block_hash, int32_t height);

/** Mainnet activation heights of the other consensus script rules (Core's consensus.BIP65Height,
 *  CSVHeight, SegwitHeight; kernel/chainparams.cpp). */
constexpr int32_t kBip65Height = 388381;   // SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY
constexpr int32_t kCsvHeight = 419328;     // SCRIPT_VERIFY_CHECKSEQUENCEVERIFY
constexpr int32_t kSegwitHeight = 481824;  // SCRIPT_VERIFY_NULLDUMMY

/** Core's GetBlockScriptFlags (validation.cpp) as ScriptVerifyFlag bits (interpreter.h):
 *  P2SH | WITNESS | TAPROOT except for the two script_flag_exceptions above (none / P2SH |
 *  WITNESS), then DERSIG from kBip66Height, CHECKLOCKTIMEVERIFY from kBip65Height,
 *  CHECKSEQUENCEVERIFY from kCsvHeight and NULLDUMMY from kSegwitHeight, exception or not. */
uint32_t GetBlockScriptVerifyFlags(const Hash32& block_hash, int32_t height);

/** Core's `CScript() << height` (script.h push_int64) for height >= 0: OP_0 for 0, OP_1..OP_16
 *  for 1..16, otherwise a push of the minimal little-endian CScriptNum encoding (a 0x00 byte
 *  appended when the top byte has its 0x80 bit set). BIP34 requires the coinbase scriptSig to
 *  start with these bytes. */
std::vector<uint8_t> SerializeScriptHeight(int32_t height);

/** The kind of spend ClassifyInput recognised. */
enum class SpendType {
    kP2PK,
    kP2PKH,
    kP2WPKH,
    kP2SH_P2WPKH,
    kP2TRKeyPath,
    kUnsupported,
};

/** inputs_by_type name of a supported SpendType ("p2pk", ...); "unsupported" otherwise. */
const char* SpendTypeName(SpendType type);

/** What one input needs checked. */
struct InputSpend {
    SpendType type = SpendType::kUnsupported;
    std::string unsupported;     // the unsupported_by_type name when type == kUnsupported
    std::vector<uint8_t> sig;    // ECDSA: DER + hash_type byte (may be empty); Schnorr: 64 or 65
    std::vector<uint8_t> pubkey; // ECDSA: key as pushed; Schnorr: the 32-byte output key
    std::vector<uint8_t> annex;  // BIP341 annex including its 0x50 tag (when has_annex)
    bool has_annex = false;
};

/** Classifies input `in` spending an output with `spent_script_pubkey` under `flags` (rules in
 *  the header comment). Throws Error (reason only; the caller adds tx / input / offset) when the
 *  input fails its script regardless of signatures. */
InputSpend ClassifyInput(const TxIn& in, const std::vector<uint8_t>& spent_script_pubkey, const ScriptFlags& flags);

/** Appends one record (layout in check_buffer.h) to `buf`:
 *    type (1) | pubkey_len (1) | sig_len (2, LE) | msg32 (32) | pubkey | sig.
 *  Requires pubkey_len <= 255 and sig_len <= 65535. */
void AppendCheckRecord(std::vector<uint8_t>& buf, CheckType type, const uint8_t* pubkey, size_t pubkey_len,
                       const uint8_t* sig, size_t sig_len, const Hash32& msg32);

/** Classifies every input of `tx` (block position `tx_index`, not a coinbase), computes the
 *  sighashes (legacy for p2pk / p2pkh with scriptCode = the scriptPubKey after FindAndDelete of
 *  the signature push; BIP143 with scriptCode 76 a9 14 <20> 88 ac for the p2wpkh forms; BIP341
 *  key path) and appends records, origins and counts to `out`. `spent` holds the output spent by
 *  each input, in input order. Throws Error naming tx_index, input_index and the input's byte
 *  offset for ClassifyInput's failures, for a taproot hash_type that BIP341 rejects, and (under
 *  flags.dersig) for an ECDSA signature that is not strict DER (SCRIPT_ERR_SIG_DER). */
void ExtractTransactionChecks(const Transaction& tx, uint32_t tx_index, const std::vector<const SpentOutput*>& spent,
                              const ScriptFlags& flags, BlockChecks& out);

}  // namespace ibd
