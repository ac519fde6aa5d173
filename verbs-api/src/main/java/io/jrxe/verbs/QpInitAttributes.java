package io.jrxe.verbs;

/**
 * What ibv_create_qp takes (ibv_qp_init_attr). Positional for code that mirrors C; {@link #builder} names each
 * field and gives the rest their defaults.
 *
 * @param type     RC, UC or UD
 * @param sendCq   where the QP's send completions go
 * @param recvCq   where its receive completions go (may be the send CQ)
 * @param srq      the shared receive queue it takes receives from, or null for a receive queue of its own
 * @param caps     its queue sizes, checked against the device's limits
 * @param sqSigAll every send work request completes, signaled or not (sq_sig_all)
 */
public record QpInitAttributes(QpType type, Cq sendCq, Cq recvCq, Srq srq, QpCapabilities caps, boolean sqSigAll) {
    /** Checks that the type, both CQs and the capabilities are given. */
    public QpInitAttributes {
        if (type == null || sendCq == null || recvCq == null || caps == null) {
            throw new IllegalArgumentException("a QP needs a type, a send CQ, a receive CQ and capabilities");
        }
    }

    /**
     * A builder: {@code QpInitAttributes.builder(QpType.RC).cq(cq).maxSendWr(64).build()}. Defaults: the capabilities
     * of {@link QpCapabilities#DEFAULT}, no SRQ, only signaled work requests complete.
     */
    public static Builder builder(QpType type) {
        return new Builder(type);
    }

    /** Names each attribute of a QP to create; {@link #build} checks that the CQs were given. */
    public static final class Builder {
        private final QpType type;
        private Cq sendCq;
        private Cq recvCq;
        private Srq srq;
        private int maxSendWr = QpCapabilities.DEFAULT.maxSendWr();
        private int maxRecvWr = QpCapabilities.DEFAULT.maxRecvWr();
        private int maxSendSge = QpCapabilities.DEFAULT.maxSendSge();
        private int maxRecvSge = QpCapabilities.DEFAULT.maxRecvSge();
        private int maxInlineData = QpCapabilities.DEFAULT.maxInlineData();
        private boolean sqSigAll;

        private Builder(QpType type) {
            this.type = type;
        }

        /** One CQ for both the send and the receive completions. */
        public Builder cq(Cq cq) {
            sendCq = cq;
            recvCq = cq;
            return this;
        }

        /** Where the send completions go. */
        public Builder sendCq(Cq cq) {
            sendCq = cq;
            return this;
        }

        /** Where the receive completions go. */
        public Builder recvCq(Cq cq) {
            recvCq = cq;
            return this;
        }

        /** Receives from this shared receive queue instead of a receive queue of its own. */
        public Builder srq(Srq s) {
            srq = s;
            return this;
        }

        /** Send work requests that may be outstanding (max_send_wr). */
        public Builder maxSendWr(int n) {
            maxSendWr = n;
            return this;
        }

        /** Receive work requests that may be posted (max_recv_wr; ignored with an SRQ). */
        public Builder maxRecvWr(int n) {
            maxRecvWr = n;
            return this;
        }

        /** Scatter/gather entries of one send work request (max_send_sge). */
        public Builder maxSendSge(int n) {
            maxSendSge = n;
            return this;
        }

        /** Scatter/gather entries of one receive work request (max_recv_sge). */
        public Builder maxRecvSge(int n) {
            maxRecvSge = n;
            return this;
        }

        /** Bytes a send work request may carry inline (max_inline_data). */
        public Builder maxInlineData(int n) {
            maxInlineData = n;
            return this;
        }

        /** Every send work request completes, signaled or not. */
        public Builder signalAll(boolean all) {
            sqSigAll = all;
            return this;
        }

        /** @throws IllegalArgumentException when a CQ is missing */
        public QpInitAttributes build() {
            return new QpInitAttributes(type, sendCq, recvCq, srq,
                    new QpCapabilities(maxSendWr, maxRecvWr, maxSendSge, maxRecvSge, maxInlineData), sqSigAll);
        }
    }
}
