package io.jrxe.tools.learn;

import io.jrxe.tools.UserError;

import java.util.List;
import java.util.Map;

/** The steps of `jrxe states --json`, found by the device they happened on and how their title starts. */
final class StatesSteps {
    private final List<Map<String, Object>> steps;

    @SuppressWarnings("unchecked")
    StatesSteps(Map<String, Object> json) {
        this.steps = (List<Map<String, Object>>) json.get("steps");
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> values(String side, String titleStart) {
        return steps.stream().filter(s -> side.equals(s.get("side")) && ((String) s.get("title")).startsWith(titleStart))
                .findFirst().map(s -> (Map<String, Object>) s.get("values"))
                .orElseThrow(() -> new UserError("jrxe states showed no step '" + titleStart + "' on " + side
                        + ": the lesson does not match the tool"));
    }
}
