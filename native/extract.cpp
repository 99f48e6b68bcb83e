// Implementation of extract.h. Script rules cite Core's VerifyScript / VerifyWitnessProgram /
// EvalScript (script/interpreter.cpp) and BIP141 / BIP143 / BIP341.
#include "extract.h"

#include <cstring>

#include "ecdsa_lax_der.h"
#include "error.h"
#include "hex.h"
#include "ripemd160.h"
#include "script.h"
#include "sighash.h"

namespace ibd {

namespace {

[[noreturn]] void Fail(const std::string& reason) { throw Error(reason, Location{}); }

InputSpend Unsupported(const char* name) {
    InputSpend s;
    s.unsupported = name;
    return s;
}

bool Hash160Equals(const std::vector<uint8_t>& data, const uint8_t* expected20) {
    const Hash20 h = Hash160(data.data(), data.size());
    return std::memcmp(h.data(), expected20, 20) == 0;
}

/** Evaluates a legacy scriptSig that must be push-only for `template_name` (a P2PK or P2PKH
 *  spend). Returns false when it has non-push opcodes (the interpreter's business); throws
 *  for an evaluation error. */
bool EvalLegacyScriptSig(const std::vector<uint8_t>& script_sig, std::vector<std::vector<uint8_t>>& stack,
                         const char* template_name) {
    const PushOnlyStatus st = EvalPushOnly(script_sig, stack);
    if (st == PushOnlyStatus::kNotPushOnly) return false;
    if (st != PushOnlyStatus::kOk) Fail(std::string(PushOnlyStatusName(st)) + ": " + template_name + " scriptSig");
    return true;
}

/** Core's VerifyWitnessProgram for the witness programs we know, from the witness stack.
 *  `is_p2sh`: the program came from a P2SH redeem script (BIP141 nested form). */
InputSpend ClassifyWitnessProgram(const std::vector<std::vector<uint8_t>>& witness, int version,
                                  const uint8_t* program, size_t program_len, bool is_p2sh, const ScriptFlags& flags) {
    if (version == 0) {
        if (program_len == 20) {
            // BIP141 P2WPKH: the witness must be exactly [signature, pubkey].
            if (witness.size() != 2) {
                Fail("SCRIPT_ERR_WITNESS_PROGRAM_MISMATCH: P2WPKH witness has " + std::to_string(witness.size()) +
                     " items, needs 2");
            }
            // Core: witness stack items above MAX_SCRIPT_ELEMENT_SIZE are disallowed.
            for (const std::vector<uint8_t>& item : witness) {
                if (item.size() > kMaxScriptElementSize) Fail("SCRIPT_ERR_PUSH_SIZE: P2WPKH witness item over 520 bytes");
            }
            // The implied script OP_DUP OP_HASH160 <program> OP_EQUALVERIFY OP_CHECKSIG.
            if (!Hash160Equals(witness[1], program)) {
                Fail("P2WPKH pubkey does not match the witness program (SCRIPT_ERR_EQUALVERIFY)");
            }
            InputSpend s;
            s.type = is_p2sh ? SpendType::kP2SH_P2WPKH : SpendType::kP2WPKH;
            s.sig = witness[0];
            s.pubkey = witness[1];
            return s;
        }
        if (program_len == 32) {
            if (witness.empty()) Fail("SCRIPT_ERR_WITNESS_PROGRAM_WITNESS_EMPTY: P2WSH input without witness");
            return Unsupported(is_p2sh ? "p2sh-p2wsh" : "p2wsh");
        }
        Fail("SCRIPT_ERR_WITNESS_PROGRAM_WRONG_LENGTH: v0 witness program of " + std::to_string(program_len) +
             " bytes");
    }
    if (version == 1 && program_len == 32 && !is_p2sh) {
        if (!flags.taproot) return Unsupported("p2tr-unenforced");
        // BIP341 "Script validation rules".
        if (witness.empty()) Fail("SCRIPT_ERR_WITNESS_PROGRAM_WITNESS_EMPTY: P2TR input without witness");
        size_t items = witness.size();
        InputSpend s;
        // With two or more elements and a last one starting with 0x50, that last one is the annex.
        if (items >= 2 && !witness.back().empty() && witness.back()[0] == kAnnexTag) {
            s.has_annex = true;
            s.annex = witness.back();
            --items;
        }
        if (items != 1) return Unsupported("p2tr-scriptpath");
        // Key path: the one element is a BIP340 signature with an optional hash_type byte.
        const std::vector<uint8_t>& sig = witness[0];
        if (sig.size() != 64 && sig.size() != 65) {
            Fail("SCRIPT_ERR_SCHNORR_SIG_SIZE: taproot key-path signature of " + std::to_string(sig.size()) + " bytes");
        }
        if (sig.size() == 65 && sig[64] == SIGHASH_DEFAULT) {
            Fail("SCRIPT_ERR_SCHNORR_SIG_HASHTYPE: 65-byte taproot signature with hash_type 0x00");
        }
        s.type = SpendType::kP2TRKeyPath;
        s.sig = sig;
        s.pubkey.assign(program, program + 32);
        return s;
    }
    // Other versions and lengths are left for future soft forks: valid without a signature.
    return Unsupported(is_p2sh ? "p2sh-witness-unknown" : "witness-unknown");
}

}  // namespace

ScriptFlags GetBlockScriptFlags(const Hash32& block_hash, int32_t height) {
    static const char* const kBip16Exception = "00000000000002dc756eebf4f49723ed8d30cc28a5f108eb94b1ba88ac4f9c22";
    static const char* const kTaprootException = "0000000000000000000f14c35b2d841e986ab5441de8c585d5ffe55ea1e395ad";
    ScriptFlags flags;
    const std::string hex = HexEncodeReversed(block_hash);
    if (hex == kBip16Exception) {
        flags.p2sh = flags.witness = flags.taproot = false;  // SCRIPT_VERIFY_NONE
    } else if (hex == kTaprootException) {
        flags.taproot = false;  // SCRIPT_VERIFY_P2SH | SCRIPT_VERIFY_WITNESS
    }
    // Core adds DERSIG after applying the exception (DeploymentActiveAt(DEPLOYMENT_DERSIG)).
    flags.dersig = height >= kBip66Height;
    return flags;
}

uint32_t GetBlockScriptVerifyFlags(const Hash32& block_hash, int32_t height) {
    const ScriptFlags f = GetBlockScriptFlags(block_hash, height);
    uint32_t flags = SCRIPT_VERIFY_NONE;
    if (f.p2sh) flags |= SCRIPT_VERIFY_P2SH;
    if (f.witness) flags |= SCRIPT_VERIFY_WITNESS;
    if (f.taproot) flags |= SCRIPT_VERIFY_TAPROOT;
    if (f.dersig) flags |= SCRIPT_VERIFY_DERSIG;
    if (height >= kBip65Height) flags |= SCRIPT_VERIFY_CHECKLOCKTIMEVERIFY;
    if (height >= kCsvHeight) flags |= SCRIPT_VERIFY_CHECKSEQUENCEVERIFY;
    if (height >= kSegwitHeight) flags |= SCRIPT_VERIFY_NULLDUMMY;
    return flags;
}

std::vector<uint8_t> SerializeScriptHeight(int32_t height) {
    if (height == 0) return {OP_0};
    if (height >= 1 && height <= 16) return {static_cast<uint8_t>(OP_1 + height - 1)};
    std::vector<uint8_t> num;
    for (uint32_t v = static_cast<uint32_t>(height); v != 0; v >>= 8) num.push_back(static_cast<uint8_t>(v & 0xff));
    if (num.back() & 0x80) num.push_back(0x00);  // keep it positive
    return SerializePush(num.data(), num.size());
}

const char* SpendTypeName(SpendType type) {
    switch (type) {
        case SpendType::kP2PK: return "p2pk";
        case SpendType::kP2PKH: return "p2pkh";
        case SpendType::kP2WPKH: return "p2wpkh";
        case SpendType::kP2SH_P2WPKH: return "p2sh-p2wpkh";
        case SpendType::kP2TRKeyPath: return "p2tr-keypath";
        case SpendType::kUnsupported: break;
    }
    return "unsupported";
}

InputSpend ClassifyInput(const TxIn& in, const std::vector<uint8_t>& spk, const ScriptFlags& flags) {
    int version = 0;
    const uint8_t* program = nullptr;
    size_t program_len = 0;
    const bool is_witness_program = IsWitnessProgram(spk, version, program, program_len);

    // Core's VerifyScript, "Bare witness programs".
    if (is_witness_program) {
        if (!flags.witness) return Unsupported("witness-unenforced");
        // The scriptPubKey leaves the program on the stack; it must be true (EvalScript).
        if (!CastToBool(program, program_len)) Fail("SCRIPT_ERR_EVAL_FALSE: witness program is zero");
        // The scriptSig must be exactly empty, otherwise malleability would return.
        if (!in.script_sig.empty()) Fail("SCRIPT_ERR_WITNESS_MALLEATED: native witness input with a scriptSig");
        return ClassifyWitnessProgram(in.witness, version, program, program_len, false, flags);
    }

    std::vector<std::vector<uint8_t>> stack;
    // Core's VerifyScript, "Additional validation for spend-to-script-hash transactions" (BIP16).
    if (IsPayToScriptHash(spk)) {
        if (!flags.p2sh) return Unsupported("p2sh-unenforced");
        const PushOnlyStatus st = EvalPushOnly(in.script_sig, stack);
        if (st == PushOnlyStatus::kNotPushOnly) Fail("SCRIPT_ERR_SIG_PUSHONLY: P2SH scriptSig is not push-only");
        if (st != PushOnlyStatus::kOk) Fail(std::string(PushOnlyStatusName(st)) + ": P2SH scriptSig");
        if (stack.empty()) Fail("SCRIPT_ERR_INVALID_STACK_OPERATION: P2SH scriptSig pushes no redeem script");
        const std::vector<uint8_t>& redeem = stack.back();
        if (!Hash160Equals(redeem, spk.data() + 2)) Fail("P2SH redeem script does not match hash (SCRIPT_ERR_EVAL_FALSE)");
        // "P2SH witness program".
        if (flags.witness && IsWitnessProgram(redeem, version, program, program_len)) {
            if (!CastToBool(program, program_len)) Fail("SCRIPT_ERR_EVAL_FALSE: witness program is zero");
            // The scriptSig must be exactly a push of the redeem script (CScript() << redeem).
            if (in.script_sig != SerializePush(redeem.data(), redeem.size())) {
                Fail("SCRIPT_ERR_WITNESS_MALLEATED_P2SH: scriptSig is not exactly one push of the witness program");
            }
            return ClassifyWitnessProgram(in.witness, version, program, program_len, true, flags);
        }
        if (flags.witness && !in.witness.empty()) Fail("SCRIPT_ERR_WITNESS_UNEXPECTED: witness on a non-witness P2SH input");
        return Unsupported("p2sh");
    }

    // A witness is only allowed with a witness program (Core's VerifyScript, end).
    if (flags.witness && !in.witness.empty()) Fail("SCRIPT_ERR_WITNESS_UNEXPECTED: witness on a non-witness input");

    size_t pubkey_len = 0;
    if (MatchPayToPubKey(spk, pubkey_len)) {
        if (!EvalLegacyScriptSig(in.script_sig, stack, "P2PK")) return Unsupported("p2pk-nonpush-scriptsig");
        // <pubkey> OP_CHECKSIG pops the signature from the top of the scriptSig's stack.
        if (stack.empty()) Fail("SCRIPT_ERR_INVALID_STACK_OPERATION: P2PK scriptSig pushes no signature");
        InputSpend s;
        s.type = SpendType::kP2PK;
        s.sig = std::move(stack.back());
        s.pubkey.assign(spk.begin() + 1, spk.begin() + 1 + static_cast<std::ptrdiff_t>(pubkey_len));
        return s;
    }
    if (IsPayToPubKeyHash(spk)) {
        if (!EvalLegacyScriptSig(in.script_sig, stack, "P2PKH")) return Unsupported("p2pkh-nonpush-scriptsig");
        // OP_DUP OP_HASH160 <hash> OP_EQUALVERIFY OP_CHECKSIG: key on top, signature below it.
        if (stack.size() < 2) {
            Fail("SCRIPT_ERR_INVALID_STACK_OPERATION: P2PKH scriptSig pushes " + std::to_string(stack.size()) +
                 " elements, needs signature and pubkey");
        }
        if (!Hash160Equals(stack.back(), spk.data() + 3)) Fail("P2PKH pubkey does not match hash (SCRIPT_ERR_EQUALVERIFY)");
        InputSpend s;
        s.type = SpendType::kP2PKH;
        s.pubkey = std::move(stack[stack.size() - 1]);
        s.sig = std::move(stack[stack.size() - 2]);
        return s;
    }
    if (spk.empty()) return Unsupported("empty");
    if (IsBareMultisig(spk)) return Unsupported("multisig");
    return Unsupported("nonstandard");
}

void AppendCheckRecord(std::vector<uint8_t>& buf, CheckType type, const uint8_t* pubkey, size_t pubkey_len,
                       const uint8_t* sig, size_t sig_len, const Hash32& msg32) {
    buf.push_back(static_cast<uint8_t>(type));
    buf.push_back(static_cast<uint8_t>(pubkey_len));
    buf.push_back(static_cast<uint8_t>(sig_len));
    buf.push_back(static_cast<uint8_t>(sig_len >> 8));
    buf.insert(buf.end(), msg32.begin(), msg32.end());
    if (pubkey_len) buf.insert(buf.end(), pubkey, pubkey + pubkey_len);
    if (sig_len) buf.insert(buf.end(), sig, sig + sig_len);
}

void ExtractTransactionChecks(const Transaction& tx, uint32_t tx_index, const std::vector<const SpentOutput*>& spent,
                              const ScriptFlags& flags, BlockChecks& out) {
    if (spent.size() != tx.vin.size()) {
        Location at;
        at.tx_index = tx_index;
        throw Error("ExtractTransactionChecks: " + std::to_string(spent.size()) + " spent outputs for " +
                        std::to_string(tx.vin.size()) + " inputs",
                    at);
    }
    auto where = [&](size_t i) {
        Location at;
        at.tx_index = tx_index;
        at.input_index = static_cast<int64_t>(i);
        at.byte_offset = static_cast<int64_t>(tx.vin[i].offset);
        return at;
    };

    // Pass 1: classify, so that the per-transaction hashes are computed only when needed
    // (Core's PrecomputedTransactionData::Init does the same from the spent outputs).
    std::vector<InputSpend> spends(tx.vin.size());
    bool need_bip143 = false, need_bip341 = false;
    for (size_t i = 0; i < tx.vin.size(); ++i) {
        try {
            spends[i] = ClassifyInput(tx.vin[i], spent[i]->script_pubkey, flags);
        } catch (const Error& e) {
            throw e.with_context(where(i));
        }
        const SpendType t = spends[i].type;
        // BIP66: CHECKSIG's CheckSignatureEncoding (the empty signature is allowed; it just
        // makes CHECKSIG false). The templates run CHECKSIG last, so classification errors
        // (hash mismatch, missing elements) come first, as in Core.
        if (flags.dersig && t != SpendType::kUnsupported && t != SpendType::kP2TRKeyPath && !spends[i].sig.empty() &&
            !IsValidSignatureEncoding(spends[i].sig.data(), spends[i].sig.size())) {
            throw Error("SCRIPT_ERR_SIG_DER: tx " + std::to_string(tx_index) + " input " + std::to_string(i) + " (" +
                            SpendTypeName(t) + ") signature is not strict DER (BIP66, enforced from height " +
                            std::to_string(kBip66Height) + "): " + HexEncode(spends[i].sig.data(), spends[i].sig.size()),
                        where(i));
        }
        need_bip143 = need_bip143 || t == SpendType::kP2WPKH || t == SpendType::kP2SH_P2WPKH;
        need_bip341 = need_bip341 || t == SpendType::kP2TRKeyPath;
    }
    PrecomputedTxData pre;
    pre.Init(tx, spent, need_bip143, need_bip341);

    // Pass 2: sighash and record per supported input.
    for (size_t i = 0; i < tx.vin.size(); ++i) {
        InputSpend& s = spends[i];
        if (s.type == SpendType::kUnsupported) {
            ++out.unsupported_by_type[s.unsupported];
            continue;
        }
        ++out.inputs_by_type[SpendTypeName(s.type)];
        Hash32 msg{};
        if (s.type == SpendType::kP2TRKeyPath) {
            // BIP341: a 64-byte signature means SIGHASH_DEFAULT; a 65th byte is the hash_type.
            const uint8_t hash_type = s.sig.size() == 65 ? s.sig[64] : uint8_t{SIGHASH_DEFAULT};
            if (!SignatureHashTaproot(tx, i, hash_type, pre, s.has_annex ? &s.annex : nullptr, msg)) {
                const bool single = (hash_type & SIGHASH_OUTPUT_MASK) == SIGHASH_SINGLE;
                throw Error("SCRIPT_ERR_SCHNORR_SIG_HASHTYPE: taproot hash_type 0x" + HexEncode(&hash_type, 1) +
                                (single ? " (SIGHASH_SINGLE without a matching output, or undefined)" : " is not defined"),
                            where(i));
            }
            AppendCheckRecord(out.checks, CheckType::kSchnorr, s.pubkey.data(), 32, s.sig.data(), 64, msg);
            ++out.schnorr_checks;
        } else {
            // ECDSA: the last byte of the signature element is the hash_type (Core:
            // `int nHashType = vchSig.back()`); the record holds the DER bytes before it.
            size_t der_len = 0;
            if (!s.sig.empty()) {
                der_len = s.sig.size() - 1;
                const int32_t hash_type = s.sig.back();
                if (s.type == SpendType::kP2PK || s.type == SpendType::kP2PKH) {
                    // scriptCode: the scriptPubKey (no OP_CODESEPARATOR in these templates)
                    // with the signature push removed (Core's EvalChecksigPreTapscript).
                    std::vector<uint8_t> script_code = spent[i]->script_pubkey;
                    FindAndDelete(script_code, SerializePush(s.sig.data(), s.sig.size()));
                    msg = SignatureHashLegacy(script_code, tx, i, hash_type);
                } else {
                    // BIP143: scriptCode for P2WPKH is 76 a9 14 <20-byte key hash> 88 ac.
                    const Hash20 key_hash = Hash160(s.pubkey.data(), s.pubkey.size());
                    std::vector<uint8_t> script_code = {OP_DUP, OP_HASH160, 0x14};
                    script_code.insert(script_code.end(), key_hash.begin(), key_hash.end());
                    script_code.push_back(OP_EQUALVERIFY);
                    script_code.push_back(OP_CHECKSIG);
                    msg = SignatureHashWitnessV0(script_code, tx, i, hash_type, spent[i]->value, pre);
                }
            }
            // An empty signature makes CHECKSIG false (Core's CheckECDSASignature): the record
            // keeps sig_len 0 and verifies kInvalid. A key that cannot fit pubkey_len can never
            // parse either: it is recorded with pubkey_len 0.
            const size_t pk_len = s.pubkey.size() <= 255 ? s.pubkey.size() : 0;
            AppendCheckRecord(out.checks, CheckType::kEcdsa, s.pubkey.data(), pk_len, s.sig.data(), der_len, msg);
            ++out.ecdsa_checks;
        }
        out.origins.push_back(CheckOrigin{tx_index, static_cast<uint32_t>(i)});
    }
}

}  // namespace ibd
