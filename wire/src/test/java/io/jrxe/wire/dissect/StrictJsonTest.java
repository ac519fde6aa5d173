package io.jrxe.wire.dissect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JSON checker the decode tests rely on must itself reject what is not JSON. */
class StrictJsonTest {
    @Test
    void parsesObjectsWithNestingNumbersStringsAndLiterals() {
        Map<String, Object> o = StrictJson.parseObject(
                " {\"a\":18446744073709551615,\"b\":{\"c\":-0.5e+3,\"d\":[true,false,null]},\"e\":\"x\\\"\\u0041\\n\"} ");
        assertThat(o).containsOnlyKeys("a", "b", "e");
        assertThat(o.get("a")).isEqualTo(new BigDecimal("18446744073709551615"));
        @SuppressWarnings("unchecked")
        Map<String, Object> b = (Map<String, Object>) o.get("b");
        assertThat(((BigDecimal) b.get("c")).compareTo(new BigDecimal("-500"))).isZero();
        assertThat(b.get("d")).isEqualTo(List.of(true, false, StrictJson.NULL));
        assertThat(o.get("e")).isEqualTo("x\"A\n");
        assertThat(StrictJson.parse("[]")).isEqualTo(List.of());
        assertThat(StrictJson.parseObject("{}")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "{", "}", "{\"a\":1,}", "[1,]", "{'a':1}", "{a:1}", "{\"a\" 1}", "{\"a\":01}", "{\"a\":1.}",
        "{\"a\":.5}", "{\"a\":1e}", "{\"a\":+1}", "{\"a\":-}", "{\"a\":tru}", "{\"a\":\"\t\"}", "{\"a\":\"\\x\"}",
        "{\"a\":\"\\u12g4\"}", "{\"a\":\"open}", "{\"a\":1}{", "{\"a\":1} x", "{\"a\":1,\"a\":2}", "{\"a\":NaN}",
        "{\"a\":1 2}", "[1 2]", "{\"a\":0x10}", "{/* c */\"a\":1}", "{\"a\":1} // c", "{\"a\":-Infinity}", "[\u000b1]",
    })
    void rejectsWhatIsNotJson(String text) {
        assertThatThrownBy(() -> StrictJson.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid JSON");
    }
}
