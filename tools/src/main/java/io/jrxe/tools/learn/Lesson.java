package io.jrxe.tools.learn;

/**
 * One lesson of the course: its text (a markdown file of the course: what it is about, the commands, what to look
 * at, the question, the hint and the explained answer) and how jrxe finds the answer, by running the tool the
 * lesson names, so that the checker follows the tool when the tool's output changes.
 */
interface Lesson {
    /** The lesson's markdown file under the course's lessons folder, e.g. 01-why-rdma.md. */
    String file();

    /** Runs the lesson's tool and reads the answer from what it printed. */
    Solution solve(LessonTools tools);
}
