package io.jrxe.tools.learn;

import io.jrxe.tools.UserError;

import java.util.List;

/** The lessons in the order they are taught. */
final class Course {
    static final List<Lesson> LESSONS = List.of(new WhyRdma(), new VerbsObjects(), new QpStateMachine(), new Operations(),
            new PacketLayout(), new RegistrationCost(), new ReceiverNotReady(), new SharedReceiveQueue(), new ClassicMistakes());

    private Course() {
    }

    /** Lesson {@code number} (from 1), or a one-line error naming the lessons there are. */
    static Lesson lesson(String number) {
        int n;
        try {
            n = Integer.parseInt(number.strip());
        } catch (NumberFormatException e) {
            throw new UserError("no lesson '" + number + "': the lessons are 1.." + LESSONS.size() + " (jrxe learn lists them)");
        }
        if (n < 1 || n > LESSONS.size()) {
            throw new UserError("no lesson " + n + ": the lessons are 1.." + LESSONS.size() + " (jrxe learn lists them)");
        }
        return LESSONS.get(n - 1);
    }

    static int numberOf(Lesson lesson) {
        return LESSONS.indexOf(lesson) + 1;
    }
}
