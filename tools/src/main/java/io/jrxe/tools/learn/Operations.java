package io.jrxe.tools.learn;

import io.jrxe.tools.UserError;

import java.util.Map;

/** Lesson 4: SEND/RECV, WRITE, READ, atomics; the answer is the opcode jrxe1 answers an RDMA READ with in `trace`. */
final class Operations implements Lesson {
    @Override
    public String file() {
        return "04-operations.md";
    }

    @Override
    @SuppressWarnings("unchecked")
    public Solution solve(LessonTools tools) {
        Map<String, Object> response = tools.trace("--op", "read").stream()
                .filter(e -> "packet".equals(e.get("event")) && "jrxe1".equals(e.get("nic"))).findFirst()
                .orElseThrow(() -> new UserError("jrxe trace --op read showed no packet from jrxe1"));
        Map<String, Object> packet = (Map<String, Object>) response.get("packet");
        String name = (String) packet.get("opcode_name");
        String bare = name.startsWith("RC ") ? name.substring(3) : name;
        return new Solution(Answer.words(name, bare), Map.of("opcode", String.valueOf(packet.get("opcode")),
                "payload", String.valueOf(packet.get("payload_length"))));
    }
}
