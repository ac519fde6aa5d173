package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.bytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * UD: sends through an address handle, the DETH (Q_Key and source QP), the Q_Key check, the
 * "high bit set means my own Q_Key" rule, and the 40-byte GRH area the receiver finds in front
 * of the payload, filled as rxe fills it for RoCEv2 over IPv4.
 */
class UdTest {
    static final int QKEY = 0x11111111;
    /** UD messages are limited by the port's active MTU: 4096 for the fixture's 4200-byte interface. */
    static final int MTU = 4096;
    static final int GRH = 40;

    private static SendWr udSend(SimPair p, WrOpcode op, long off, int len, int remoteQkey) throws Exception {
        Ah ah = p.a.pd.createAh(AddressVector.to(GidEntry.gidOf(p.b.address.address()), 1));
        SendWr w = wr(p.a, op, off, len);
        w.ahHandle = SimPair.ahHandle(p.a, ah);
        w.remoteQpn = p.b.qp.qpNum();
        w.remoteQkey = remoteQkey;
        return w;
    }

    @ParameterizedTest(name = "UD {0} of {1} bytes")
    @CsvSource({"SEND,0", "SEND,1", "SEND,4095", "SEND,4096", "SEND_WITH_IMM,0", "SEND_WITH_IMM,1", "SEND_WITH_IMM,4095",
        "SEND_WITH_IMM,4096", "SEND,1001"})
    void aDatagramArrivesBehindTheGrh(WrOpcode op, int size) throws Exception {
        try (SimPair p = new SimPair(size, new SimPair.Config(QpType.UD))) {
            Wire wire = Wire.on(p);
            fill(p.a.memory, 0, size, size);
            p.b.memory.asSlice(100_000, GRH).fill((byte) 0x55);
            p.b.qp.postRecv(recv(p.b, 100_000, GRH + MTU + 100, 77));
            SendWr w = udSend(p, op, 0, size, QKEY);
            w.immData = 0x1234ABCD;
            w.wrId = 5;
            p.a.qp.postSend(w);
            p.awaitCompletions(1, 1, 10 * MS);

            WorkCompletion s = p.sendCompletions(p.a).getFirst();
            assertThat(s.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(s.opcode()).isEqualTo(WcOpcode.SEND);
            assertThat(s.wrId()).isEqualTo(5);

            WorkCompletion r = p.recvCompletions(p.b).getFirst();
            assertThat(r.status()).as("%s", r).isEqualTo(WcStatus.SUCCESS);
            assertThat(r.opcode()).isEqualTo(WcOpcode.RECV);
            assertThat(r.wrId()).isEqualTo(77);
            assertThat(r.byteLen()).as("the GRH area counts in byte_len").isEqualTo(GRH + size);
            assertThat(r.srcQp()).isEqualTo(p.a.qp.qpNum());
            assertThat(r.wcFlags() & WorkCompletion.WITH_GRH).isNotZero();
            assertThat(r.hasImmediate()).isEqualTo(op == WrOpcode.SEND_WITH_IMM);
            if (op == WrOpcode.SEND_WITH_IMM) {
                assertThat(r.immData()).isEqualTo(0x1234ABCD);
            }
            assertSameBytes(p.b.memory, 100_000 + GRH, p.a.memory, 0, size);

            // The wire: one UD packet with the DETH naming the Q_Key and the sender's QP.
            assertThat(wire.packets()).hasSize(1);
            Wire.Packet pk = wire.packets().getFirst();
            assertThat(pk.opcode()).isEqualTo(op == WrOpcode.SEND ? Opcode.UD_SEND_ONLY : Opcode.UD_SEND_ONLY_WITH_IMMEDIATE);
            DethFlyweight deth = new DethFlyweight().wrap(pk.buffer(), pk.opcode().offsetOf(ExtensionHeader.DETH));
            assertThat(deth.qkey()).isEqualTo(QKEY);
            assertThat(deth.srcQpn()).isEqualTo(p.a.qp.qpNum());
            assertThat(pk.destQpn()).isEqualTo(p.b.qp.qpNum());

            // The GRH area for IPv4: 20 zero bytes, then the IPv4 header the datagram came in.
            byte[] grh = bytes(p.b.memory, 100_000, GRH);
            assertThat(java.util.Arrays.copyOf(grh, 20)).containsOnly(0);
            ByteBuffer ip = ByteBuffer.wrap(grh, 20, 20).slice();
            assertThat(ip.get(0)).as("version 4, IHL 5").isEqualTo((byte) 0x45);
            assertThat(ip.getShort(2) & 0xFFFF).as("IPv4 total length: IP + UDP + the whole RoCE packet")
                    .isEqualTo(20 + 8 + pk.bytes().length);
            assertThat(ip.get(9)).as("protocol UDP").isEqualTo((byte) 17);
            assertThat(ip.getInt(12)).isEqualTo(p.a.address.ipv4());
            assertThat(ip.getInt(16)).isEqualTo(p.b.address.ipv4());
            assertThat(ipv4Checksum(ip)).as("the header checksum of a real IPv4 header").isZero();
        }
    }

    /** The ones' complement sum over a header including its checksum field: 0 when the checksum is right. */
    private static int ipv4Checksum(ByteBuffer header) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += header.getShort(i) & 0xFFFF;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    @Test
    void aWrongQkeyIsDroppedAndCounted() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.UD))) {
            p.b.qp.postRecv(recv(p.b, 100_000, 1000, 1));
            p.a.qp.postSend(udSend(p, WrOpcode.SEND, 0, 100, QKEY + 1));
            p.awaitCompletions(1, 0, 10 * MS);
            p.run(10 * MS, () -> p.counter(p.b, Counter.DROP_BAD_QKEY) > 0);
            assertThat(p.sendCompletions(p.a).getFirst().status()).as("UD has no acknowledgement: the sender succeeds")
                    .isEqualTo(WcStatus.SUCCESS);
            assertThat(p.recvCompletions(p.b)).isEmpty();
            assertThat(p.counter(p.b, Counter.DROP_BAD_QKEY)).isEqualTo(1);

            // The receive is still there for the next, well-keyed datagram.
            fill(p.a.memory, 0, 100, 3);
            p.a.qp.postSend(udSend(p, WrOpcode.SEND, 0, 100, QKEY));
            p.awaitCompletions(2, 1, 10 * MS);
            assertThat(p.recvCompletions(p.b).getFirst().wrId()).isEqualTo(1);
            assertSameBytes(p.b.memory, 100_000 + GRH, p.a.memory, 0, 100);
        }
    }

    @Test
    void aDatagramWithNoReceivePostedIsDroppedAndCounted() throws Exception {
        try (SimPair p = new SimPair(6, new SimPair.Config(QpType.UD))) {
            Wire wire = Wire.on(p);
            p.a.qp.postSend(udSend(p, WrOpcode.SEND, 0, 100, QKEY));
            p.awaitCompletions(1, 0, 10 * MS);
            p.run(10 * MS, () -> p.counter(p.b, Counter.DROP_NO_RESOURCES) > 0);
            assertThat(p.counter(p.b, Counter.DROP_NO_RESOURCES)).isEqualTo(1);
            assertThat(wire.count(Wire.fromSide(p.b))).as("UD has no RNR NAK").isZero();
        }
    }

    @Test
    void aQkeyWithTheHighBitSetMeansTheSendersOwnQkey() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.UD))) {
            Wire wire = Wire.on(p);
            p.b.qp.postRecv(recv(p.b, 100_000, 1000, 1));
            p.a.qp.postSend(udSend(p, WrOpcode.SEND, 0, 64, 0x80000000 | 0x0BADBAD));
            p.awaitCompletions(1, 1, 10 * MS);
            Wire.Packet pk = wire.packets().getFirst();
            int qkeyOnWire = new DethFlyweight().wrap(pk.buffer(), pk.opcode().offsetOf(ExtensionHeader.DETH)).qkey();
            // IBTA 10.2.5 / rxe: a work request Q_Key with bit 31 set sends the QP's own Q_Key instead.
            assertThat(qkeyOnWire).isEqualTo(p.a.qp.query().qkey()).isEqualTo(QKEY);
            assertThat(p.recvCompletions(p.b).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        }
    }

    @Test
    void aMessageLargerThanTheMtuIsRefusedAtPostTime() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.UD))) {
            assertThatThrownBy(() -> p.a.qp.postSend(udSend(p, WrOpcode.SEND, 0, MTU + 1, QKEY)))
                    .isInstanceOf(VerbsException.class)
                    .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL));
            for (WrOpcode op : new WrOpcode[] {WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ, WrOpcode.ATOMIC_FETCH_AND_ADD}) {
                assertThatThrownBy(() -> p.a.qp.postSend(udSend(p, op, 0, 8, QKEY))).isInstanceOf(VerbsException.class);
            }
        }
    }

    @Test
    void aReceiveBufferWithoutRoomForTheGrhFailsWithLocalLengthError() throws Exception {
        try (SimPair p = new SimPair(5, new SimPair.Config(QpType.UD))) {
            p.b.qp.postRecv(recv(p.b, 100_000, GRH + 99, 1));
            p.a.qp.postSend(udSend(p, WrOpcode.SEND, 0, 100, QKEY));
            p.awaitCompletions(1, 1, 10 * MS);
            assertThat(p.recvCompletions(p.b).getFirst().status()).isEqualTo(WcStatus.LOC_LEN_ERR);
            assertThat(p.b.memory.get(ValueLayout.JAVA_BYTE, 100_000 + GRH)).isZero();
        }
    }
}
