package io.rdmaffm.verbs;

/** enum ibv_wc_status, in C order so a status is found by index without allocation. */
public enum WorkCompletionStatus {
    SUCCESS, LOC_LEN_ERR, LOC_QP_OP_ERR, LOC_EEC_OP_ERR, LOC_PROT_ERR, WR_FLUSH_ERR, MW_BIND_ERR, BAD_RESP_ERR,
    LOC_ACCESS_ERR, REM_INV_REQ_ERR, REM_ACCESS_ERR, REM_OP_ERR, RETRY_EXC_ERR, RNR_RETRY_EXC_ERR,
    LOC_RDD_VIOL_ERR, REM_INV_RD_REQ_ERR, REM_ABORT_ERR, INV_EECN_ERR, INV_EEC_STATE_ERR, FATAL_ERR,
    RESP_TIMEOUT_ERR, GENERAL_ERR, TM_ERR, TM_RNDV_INCOMPLETE, UNKNOWN;

    private static final WorkCompletionStatus[] BY_VALUE = values();

    /** The status for an IBV_WC_* value; {@link #UNKNOWN} for values this version does not know. */
    public static WorkCompletionStatus of(int value) {
        return value >= 0 && value < BY_VALUE.length - 1 ? BY_VALUE[value] : UNKNOWN;
    }

    /** The IBV_WC_* value. */
    public int value() {
        return ordinal();
    }
}
