package io.jrxe.wire.port;

import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;
import io.jrxe.wire.port.udp.PolledUdpPort;
import io.jrxe.wire.port.udp.PortInUseException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The invoked NIC's duty cycle: work runs on the thread that invokes or rings it, work that finds
 * the loop held is run by the holder before it lets go, and when nobody invokes, the standby
 * thread serves datagrams and timers by itself.
 */
class InvokerLoopTest {
    private static final PeerAddress A = PeerAddress.of("127.0.6.21");
    private static final PeerAddress B = PeerAddress.of("127.0.6.22");
    private static final RawSocketOpener NO_RAW = () -> {
        throw new RawSocketUnavailableException(1, "not in this test");
    };
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    private InvokerLoop loop(PeerAddress at, boolean standby) throws PortInUseException {
        InvokerLoop loop = new InvokerLoop(PolledUdpPort.bind(at, NO_RAW), "test-" + at.address().getHostAddress(), standby, true);
        open.add(loop);
        return loop;
    }

    @Test
    void aDoorbellRunsTheNicOnThePostersThread() throws Exception {
        InvokerLoop loop = loop(A, false);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        loop.execute(() -> ranOn.set(Thread.currentThread()));
        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
    }

    @Test
    void workRungWhileAnotherThreadHoldsTheLoopRunsBeforeTheHolderLetsGo() throws Exception {
        InvokerLoop loop = loop(A, false);
        List<String> order = new CopyOnWriteArrayList<>();
        loop.holding(() -> {
            Thread poster = new Thread(() -> loop.execute(() -> order.add("task")));
            poster.start();
            poster.join();
            order.add("holder done");
            return null;
        });
        assertThat(order).containsExactly("holder done", "task");
    }

    @Test
    void anInvocationDeliversTheDatagramsThatWait() throws Exception {
        InvokerLoop a = loop(A, false);
        InvokerLoop b = loop(B, false);
        Recorder recorder = new Recorder(3);
        b.port().receiver(recorder);
        for (int i = 0; i < 3; i++) {
            ByteBuffer packet = packet(i, 64 + i * 100);
            a.execute(() -> a.port().send(packet, 0, packet.capacity(), B, 49152));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (recorder.done.getCount() > 0 && System.nanoTime() < deadline) {
            b.invoke();
        }
        assertThat(recorder.lengths).containsExactly(64, 164, 264);
        assertThat(recorder.threads).containsOnly(Thread.currentThread());
        assertThat(recorder.dropped).isEmpty();
    }

    @Test
    void anInvocationThatDrainedTheSocketReturnsWithoutReadingItAgain() throws Exception {
        InvokerLoop a = loop(A, false);
        InvokerLoop b = loop(B, false);
        ByteBuffer answer = packet(2, 80);
        Recorder recorder = new Recorder(2) {
            @Override
            public void burstEnd() {
                if (lengths.size() == 1) { // the next datagram arrives after the socket was read to empty
                    a.execute(() -> a.port().send(answer, 0, answer.capacity(), B, 49152));
                }
            }
        };
        b.port().receiver(recorder);
        ByteBuffer first = packet(1, 64);
        a.execute(() -> a.port().send(first, 0, first.capacity(), B, 49152));
        assertThat(firstWork(b)).as("the invocation that delivered the first datagram").isEqualTo(1);
        assertThat(recorder.lengths).containsExactly(64);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (recorder.done.getCount() > 0 && System.nanoTime() < deadline) {
            b.invoke();
        }
        assertThat(recorder.lengths).as("the next invocation delivers the second").containsExactly(64, 80);
    }

    @Test
    void aTaskThatADatagramQueuedRunsInTheSameInvocation() throws Exception {
        InvokerLoop a = loop(A, false);
        InvokerLoop b = loop(B, false);
        AtomicReference<Thread> taskRanOn = new AtomicReference<>();
        Recorder recorder = new Recorder(1) {
            @Override
            public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
                super.packet(buffer, offset, length, info);
                b.execute(() -> taskRanOn.set(Thread.currentThread())); // queued: this thread holds the loop
            }
        };
        b.port().receiver(recorder);
        ByteBuffer packet = packet(3, 64);
        a.execute(() -> a.port().send(packet, 0, packet.capacity(), B, 49152));
        assertThat(firstWork(b)).as("the datagram and the task it queued").isEqualTo(2);
        assertThat(taskRanOn.get()).isSameAs(Thread.currentThread());
    }

    /** Invokes {@code loop} until an invocation does some work (10 s at most); returns that work. */
    private static int firstWork(InvokerLoop loop) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int work = 0;
        while (work == 0 && System.nanoTime() < deadline) {
            work = loop.invoke();
        }
        return work;
    }

    @Test
    void withNobodyInvokingTheStandbyThreadServesDatagrams() throws Exception {
        InvokerLoop a = loop(A, false);
        InvokerLoop b = loop(B, true);
        Recorder recorder = new Recorder(1);
        b.port().receiver(recorder);
        ByteBuffer packet = packet(7, 128);
        a.execute(() -> a.port().send(packet, 0, packet.capacity(), B, 49152));
        assertThat(recorder.done.await(10, TimeUnit.SECONDS)).as("delivered without an invocation").isTrue();
        assertThat(recorder.threads.getFirst().getName()).endsWith("-standby");
    }

    @Test
    void aProgramThatStopsInvokingIsServedByTheStandbyAgain() throws Exception {
        InvokerLoop a = loop(A, false);
        InvokerLoop b = loop(B, true);
        Recorder recorder = new Recorder(1);
        b.port().receiver(recorder);
        long activeUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        while (System.nanoTime() < activeUntil) {
            b.invoke(); // long enough for the standby's looks to have backed off to their longest
        }
        ByteBuffer packet = packet(9, 80);
        a.execute(() -> a.port().send(packet, 0, packet.capacity(), B, 49152));
        assertThat(recorder.done.await(10, TimeUnit.SECONDS)).as("served after the program went quiet").isTrue();
        assertThat(recorder.threads.getFirst().getName()).endsWith("-standby");
    }

    @Test
    void aLoopRunByItsStandbyRunsADoorbellThereAndWakesItFromItsWait() throws Exception {
        InvokerLoop loop = InvokerLoop.runByStandby(PolledUdpPort.bind(A, NO_RAW), "test-standby-only");
        open.add(loop);
        for (int doorbell = 0; doorbell < 2; doorbell++) {
            if (doorbell == 1) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!loop.blockedInWaiter() && System.nanoTime() < deadline) {
                    Thread.yield();
                }
                assertThat(loop.blockedInWaiter()).as("the standby blocks once it has nothing to do").isTrue();
            }
            CountDownLatch ran = new CountDownLatch(1);
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            loop.execute(() -> {
                ranOn.set(Thread.currentThread());
                ran.countDown();
            });
            // No datagram or timer would end the standby's wait: only the doorbell's wake does.
            assertThat(ran.await(10, TimeUnit.SECONDS)).as("doorbell %d ran", doorbell).isTrue();
            assertThat(ranOn.get().getName()).as("doorbell %d", doorbell).endsWith("-standby");
        }
    }

    @Test
    void withNobodyInvokingTheStandbyThreadFiresTimers() throws Exception {
        InvokerLoop loop = loop(A, true);
        CountDownLatch fired = new CountDownLatch(1);
        long at = System.nanoTime();
        AtomicReference<Long> firedAt = new AtomicReference<>();
        loop.holding(() -> {
            loop.schedule(TimeUnit.MILLISECONDS.toNanos(5), () -> {
                firedAt.set(System.nanoTime());
                fired.countDown();
            });
            return null;
        });
        assertThat(fired.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(firedAt.get() - at).as("never early").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(5));
    }

    @Test
    void aTimerScheduledFromOutsideTheLoopRunsInIt() throws Exception {
        InvokerLoop loop = loop(A, false);
        AtomicReference<Boolean> inLoop = new AtomicReference<>();
        loop.schedule(0, () -> inLoop.set(loop.inLoop()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (inLoop.get() == null && System.nanoTime() < deadline) {
            loop.invoke();
        }
        assertThat(inLoop.get()).isTrue();
    }

    @Test
    void aWaiterRunsTheNicItselfAndTheDatagramWakesIt() throws Exception {
        InvokerLoop a = loop(A, false);
        InvokerLoop b = loop(B, false);
        Recorder recorder = new Recorder(1);
        b.port().receiver(recorder);
        CountDownLatch entered = new CountDownLatch(1);
        AtomicReference<Boolean> result = new AtomicReference<>();
        Thread waiter = new Thread(() -> result.set(b.runUntil(() -> {
            entered.countDown();
            return recorder.done.getCount() == 0;
        }, TimeUnit.SECONDS.toNanos(60))), "test-waiter");
        waiter.start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        ByteBuffer packet = packet(3, 96);
        a.execute(() -> a.port().send(packet, 0, packet.capacity(), B, 49152));
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertThat(waiter.isAlive()).as("woken by the datagram, not by its 60 s running out").isFalse();
        assertThat(result.get()).isTrue();
        assertThat(recorder.threads).containsExactly(waiter);
    }

    @Test
    void workDoneOnAnotherThreadWakesTheWaiter() throws Exception {
        InvokerLoop loop = loop(A, true);
        AtomicReference<Boolean> flag = new AtomicReference<>(false);
        CountDownLatch entered = new CountDownLatch(1);
        AtomicReference<Boolean> result = new AtomicReference<>();
        Thread waiter = new Thread(() -> result.set(loop.runUntil(() -> {
            entered.countDown();
            return flag.get();
        }, TimeUnit.SECONDS.toNanos(60))), "test-waiter");
        waiter.start();
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        loop.execute(() -> flag.set(true)); // a doorbell rung on this thread: it runs the task and must wake the waiter
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertThat(waiter.isAlive()).as("woken by the other thread's work").isFalse();
        assertThat(result.get()).isTrue();
    }

    @Test
    void aWaiterGivesUpWhenItsTimeIsUp() throws Exception {
        InvokerLoop loop = loop(A, true);
        long start = System.nanoTime();
        assertThat(loop.runUntil(() -> false, TimeUnit.MILLISECONDS.toNanos(50))).isFalse();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    }

    private static ByteBuffer packet(int seq, int length) {
        ByteBuffer b = ByteBuffer.allocateDirect(length);
        for (int i = 0; i < length - 4; i++) {
            b.put(i, (byte) (seq + i));
        }
        b.put(0, (byte) 0x04); // a SEND ONLY: the port does not read it, but a BTH-shaped start is honest
        return b;
    }

    private static class Recorder implements PacketSink {
        final CountDownLatch done;
        final List<Integer> lengths = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        final List<DropReason> dropped = new CopyOnWriteArrayList<>();

        Recorder(int expected) {
            done = new CountDownLatch(expected);
        }

        @Override
        public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
            lengths.add(length);
            threads.add(Thread.currentThread());
            done.countDown();
        }

        @Override
        public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
            dropped.add(reason);
        }
    }
}
