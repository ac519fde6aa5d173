/**
 * How jrxe's threads wait, in one family: a thread that found no work polls on for a while and then
 * waits in a way that costs no CPU, and each kind of waiter chooses the shape of that "while" from
 * measured thresholds. {@link io.jrxe.verbs.idle.PollWindow} (a NIC thread, an invoked NIC's standby
 * and waiter: yield for a window after the last work, then block in the selector),
 * {@link io.jrxe.verbs.idle.LatencyIdle} (a latency test's poll: spin, then yield, sooner when the CPU
 * is shared with the other side of the exchange, never sleep), {@link io.jrxe.verbs.idle.BackoffIdle}
 * (a bandwidth test's or a program's wait for completions: spin, yield, then park for longer and
 * longer), {@link io.jrxe.verbs.idle.Nap} (a sleep that really lasts), and
 * {@link io.jrxe.verbs.idle.TimerQueue} (the due timers of a duty cycle run by whoever runs it).
 * The thresholds and the reason for each are in the classes; docs/benchmarks.md says how they were
 * measured.
 */
package io.jrxe.verbs.idle;
