package io.jrxe.tools.conformance;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.OobSocket;
import io.jrxe.tools.rcops.RcOpsDest;

import java.nio.charset.StandardCharsets;

/**
 * A target behind the rc-ops exchange (`jrxe rc-ops --many` on any device, kernel rxe included): one TCP
 * connection per case. The tester sends its rc-ops line (its QPN, the case's first PSN, its GID, MTU); the target
 * answers with its own line and its keys line ({@link TargetKeys}), and keeps the QP until the tester says "done".
 */
final class ExchangeTarget implements Target {
    private final String host;
    private final int port;
    private final int timeoutMillis;

    ExchangeTarget(String host, int port, int timeoutMillis) {
        this.host = host;
        this.port = port;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public String describe() {
        return "rc-ops --many target at " + host + ":" + port + " (its inside is not visible: answers on the wire only)";
    }

    @Override
    public boolean inProcess() {
        return false;
    }

    @Override
    public TargetQp connect(int testerQpn, int startPsn, byte[] testerGid) {
        OobSocket oob = OobSocket.connect(host, port, timeoutMillis);
        try {
            oob.write(new RcOpsDest(testerQpn, startPsn, testerGid, 0, 0, CaseTable.MTU).encode(), "the tester's QP");
            RcOpsDest dest = RcOpsDest.decode(oob.readExactly(RcOpsDest.LENGTH, "the target's QP, GID and buffer"));
            TargetKeys keys = TargetKeys.decode(oob.readExactly(TargetKeys.LENGTH, "the target's keys"));
            if (dest.mtu() != CaseTable.MTU) {
                throw new UserError("the target's path MTU is " + dest.mtu() + "; the cases need " + CaseTable.MTU);
            }
            return new TargetQp(dest, keys, -1, null, () -> {
                oob.write("done\n".getBytes(StandardCharsets.US_ASCII), "the end of the case");
                oob.close();
            });
        } catch (IllegalArgumentException e) {
            oob.close();
            throw new UserError(e.getMessage(), e);
        } catch (RuntimeException e) {
            oob.close();
            throw e;
        }
    }

    @Override
    public void close() {
        // nothing held between cases
    }
}
