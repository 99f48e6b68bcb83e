// Implementation of tx_checks.h.
#include "support/tx_checks.h"

#include <stdexcept>

#include "script/script_checks.h"
#include "script/script_type.h"
#include "script/sighash.h"
#include "verify/check_buffer.h"

namespace ibd::test {

namespace {

/** ImmediateSink that also keeps each check's record and verdict. */
class KeepingSink : public ImmediateSink {
public:
    KeepingSink(TxEvaluation& out, CheckOrigin origin) : out_(out), origin_(origin) {}
    bool Check(CheckType type, const Hash32& msg, const uint8_t* pubkey, size_t pubkey_len, const uint8_t* sig,
               size_t sig_len) override {
        if (pubkey_len > 0xff || sig_len > 0xffff) return false;  // no record can carry it (check_buffer.h)
        const bool valid = ImmediateSink::Check(type, msg, pubkey, pubkey_len, sig, sig_len);
        AppendCheckRecord(out_.checks, type, pubkey, pubkey_len, sig, sig_len, msg);
        out_.origins.push_back(origin_);
        out_.verdicts.push_back(static_cast<uint8_t>(valid ? Verdict::kValid : Verdict::kInvalid));
        ++(type == CheckType::kSchnorr ? out_.schnorr_checks : out_.ecdsa_checks);
        return valid;
    }

private:
    TxEvaluation& out_;
    CheckOrigin origin_;
};

}  // namespace

TxEvaluation EvaluateTransaction(const Transaction& tx, uint32_t tx_index, const std::vector<const SpentOutput*>& spent,
                                 uint32_t flags) {
    if (spent.size() != tx.vin.size()) throw std::invalid_argument("EvaluateTransaction: one spent output per input");
    bool any_taproot = false;
    for (const SpentOutput* o : spent) {
        any_taproot = any_taproot || (o->script_pubkey.size() == 34 && o->script_pubkey[0] == 0x51 &&
                                      o->script_pubkey[1] == 32);
    }
    PrecomputedTxData pre;
    pre.Init(tx, spent, tx.HasWitness(), any_taproot);
    TxEvaluation out;
    for (size_t i = 0; i < tx.vin.size(); ++i) {
        const TxIn& in = tx.vin[i];
        KeepingSink sink(out, CheckOrigin{tx_index, static_cast<uint32_t>(i)});
        TransactionSignatureChecker checker(tx, i, spent[i]->value, pre, sink);
        InputEvaluation r;
        r.type = InputScriptTypeName(in, spent[i]->script_pubkey);
        r.ok = VerifyScript(in.script_sig, spent[i]->script_pubkey, in.witness.empty() ? nullptr : &in.witness, flags,
                            checker, &r.serror);
        r.checks = sink.checks;
        ++out.inputs_by_type[r.type];
        out.inputs.push_back(r);
    }
    return out;
}

}  // namespace ibd::test
