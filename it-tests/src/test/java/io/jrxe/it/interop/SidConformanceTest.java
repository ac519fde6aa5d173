package io.jrxe.it.interop;

import java.util.HashMap;
import java.util.Map;

/**
 * `jrxe conformance --target` against Debian unstable's rxe0 (Linux 7.2), checked as {@link KernelRxeConformanceTest}
 * checks 6.1: where rxe answers as jrxe the case passes, where it differs it fails with rxe's recorded answer.
 */
@OnLabRelease(LabRelease.SID)
class SidConformanceTest extends KernelRxeConformanceTest {
    /** 7.2 refuses a SEND ONLY longer than the path MTU with a NAK (invalid request), as IBTA asks; 6.1 accepted it. */
    @Override
    Map<String, String> rxeAnswers() {
        Map<String, String> answers = new HashMap<>(super.rxeAnswers());
        answers.remove("LEN-06");
        return answers;
    }
}
