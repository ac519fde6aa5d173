package io.jrxe.tools.soak;

import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.sim.VirtualTime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Checks what the NICs did against the {@link SoakModel}. Completions as they come: each posted WR exactly
 * once, in order per QP, SUCCESS, with the right opcode, byte_len and immediate; receives in the order of the
 * messages that consume them. When an operation's last completion arrives its slots are compared with the
 * model, the whole slot, so bytes written past a message's end count too. After the run, {@link #sweep} compares
 * a NIC's whole memory.
 */
final class CompletionChecker {
    private final SoakModel model;
    private final SoakReport report;
    private final VirtualTime time;
    private final Random random;
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private long tamperFrom;

    /** {@code random} is the run's: only {@code tamperFrom} (the checker's own test; -1 for none) draws from it. */
    CompletionChecker(SoakModel model, SoakReport report, VirtualTime time, Random random, long tamperFrom) {
        this.model = model;
        this.report = report;
        this.time = time;
        this.random = random;
        this.tamperFrom = tamperFrom;
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /** Takes and checks every completion the NIC has. */
    void poll(SoakNic nic) {
        int n;
        while ((n = nic.sendCq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                sendCompletion(nic, wcs[i]);
            }
        }
        while ((n = nic.recvCq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                recvCompletion(nic, wcs[i]);
            }
        }
    }

    private void sendCompletion(SoakNic nic, WorkCompletion wc) {
        Lane lane = model.lane(nic, wc.qpNum());
        Operation op = model.takeSend(wc.wrId());
        if (lane == null || op == null || op.lane != lane) {
            report.stray("a send completion no posted work request was waiting for, on " + nic + ": " + wc);
            return;
        }
        if (lane.sends.peekFirst() != op) {
            report.failed(op, "its send completion came before that of op " + lane.sends.peekFirst().id + " posted earlier");
        }
        lane.sends.remove(op);
        op.sendDone = true;
        long expectedLength = op.cell >= 0 ? 8 : op.length;
        if (wc.status() != WcStatus.SUCCESS) {
            report.failed(op, "send completion " + wc);
        } else if (wc.opcode() != op.kind.opcode.completion() || wc.byteLen() != expectedLength) {
            report.failed(op, "send completion " + wc + ", expected opcode " + op.kind.opcode.completion() + " byte_len "
                    + expectedLength);
        }
        maybeFinish(op);
    }

    private void recvCompletion(SoakNic nic, WorkCompletion wc) {
        Operation op = model.takeRecv(wc.wrId());
        if (op == null || op.lane.to != nic || op.lane.to.qps[op.lane.index].qpNum() != wc.qpNum()) {
            report.stray("a receive completion no posted receive was waiting for, on " + nic + ": " + wc);
            return;
        }
        Lane lane = op.lane;
        if (lane.recvs.peekFirst() != op) {
            report.failed(op, "its receive completed before that of op " + lane.recvs.peekFirst().id
                    + ", whose message was sent earlier");
        }
        lane.recvs.remove(op);
        op.recvDone = true;
        boolean withImm = op.kind.carriesImmediate();
        if (wc.status() != WcStatus.SUCCESS) {
            report.failed(op, "receive completion " + wc);
        } else if (wc.opcode() != op.kind.receiveCompletion() || wc.byteLen() != op.length
                || wc.hasImmediate() != withImm || withImm && wc.immData() != op.imm) {
            report.failed(op, "receive completion " + wc + ", expected " + op.kind.receiveCompletion()
                    + " byte_len " + op.length + (withImm ? String.format(" imm=0x%08x", op.imm) : " without imm"));
        }
        maybeFinish(op);
    }

    /** With its last completion in, the operation's buffers (and its atomic cell, when no other atomic is due on it). */
    private void maybeFinish(Operation op) {
        if (op.missingCompletions() > 0) {
            return;
        }
        Lane lane = op.lane;
        SlotArea local = lane.localArea();
        SlotArea remote = lane.remoteArea();
        long resultAt = model.applyResult(op);
        if (tamperFrom >= 0 && op.id >= tamperFrom && op.length > 0) {
            tamperFrom = -1;
            SoakNic resultNic = SoakModel.resultNic(op);
            long at = resultAt + random.nextInt(op.length);
            byte v = resultNic.memory.get(ValueLayout.JAVA_BYTE, at);
            resultNic.memory.set(ValueLayout.JAVA_BYTE, at, (byte) (v ^ 1 << random.nextInt(8)));
        }
        boolean good = compare(op, lane.from, local.slot(op.localSlot), local.slotSize, "the requester's buffer");
        if (op.remoteSlot >= 0) {
            good &= compare(op, lane.to, remote.slot(op.remoteSlot), remote.slotSize, "the responder's buffer");
        }
        if (op.cell >= 0 && --lane.cellOutstanding[op.cell] == 0) {
            good &= compare(op, lane.to, remote.cell(op.cell), 8, "the atomic's target");
        }
        if (!good) {
            report.failed(op, null);
        }
        local.free.add(op.localSlot);
        if (op.remoteSlot >= 0) {
            remote.free.add(op.remoteSlot);
        }
        op.finished = true;
        lane.active--;
        report.finished(op, time.nanoTime());
    }

    /** Memory against the model; a difference is reported once, then the model takes what memory holds. */
    private boolean compare(Operation op, SoakNic nic, long offset, long length, String what) {
        long at = mismatch(nic, offset, length);
        if (at < 0) {
            return true;
        }
        report.detail("op " + op + ": byte " + at + " of " + what + " on " + nic + " is " + bytes(nic, offset + at));
        MemorySegment.copy(nic.memory, offset, nic.shadow, offset, length);
        return false;
    }

    /** The whole memory of a NIC against the model, slot by slot, cell by cell (outstanding ones aside). */
    void sweep(SoakNic nic) {
        List<long[]> busy = new ArrayList<>();
        for (Operation op : model.unfinished()) {
            Lane lane = op.lane;
            busy.add(new long[] {lane.from == nic ? lane.index : -1, op.localSlot,
                                 lane.to == nic ? lane.index : -1, op.remoteSlot});
        }
        for (int i = 0; i < nic.areas.length; i++) {
            SlotArea area = nic.areas[i];
            for (int s = 0; s < area.slots; s++) {
                if (!isBusy(busy, i, s)) {
                    sweepRange(nic, area.slot(s), area.slotSize, "slot " + s + " of QP pair " + i);
                }
            }
            Lane incoming = model.incoming(nic, i);
            for (int c = 0; c < SlotArea.CELLS; c++) {
                if (incoming != null && incoming.cellOutstanding[c] == 0) {
                    sweepRange(nic, area.cell(c), 8, "atomic cell " + c + " of QP pair " + i);
                }
            }
        }
    }

    private static boolean isBusy(List<long[]> busy, int index, int slot) {
        for (long[] b : busy) {
            if (b[0] == index && b[1] == slot || b[2] == index && b[3] == slot) {
                return true;
            }
        }
        return false;
    }

    private void sweepRange(SoakNic nic, long offset, long length, String what) {
        long at = mismatch(nic, offset, length);
        if (at >= 0) {
            report.sweepMismatch("after the run, byte " + at + " of " + what + " on " + nic + " is " + bytes(nic, offset + at));
            MemorySegment.copy(nic.memory, offset, nic.shadow, offset, length);
        }
    }

    /** Where memory and model first differ in the range, relative to its start, or -1. */
    private static long mismatch(SoakNic nic, long offset, long length) {
        return MemorySegment.mismatch(nic.memory, offset, offset + length, nic.shadow, offset, offset + length);
    }

    /** "0x.., expected 0x..": the byte at {@code at} in memory and in the model. */
    private static String bytes(SoakNic nic, long at) {
        return String.format("0x%02x, expected 0x%02x", nic.memory.get(ValueLayout.JAVA_BYTE, at) & 0xFF,
                nic.shadow.get(ValueLayout.JAVA_BYTE, at) & 0xFF);
    }
}
