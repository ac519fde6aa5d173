package io.jrxe.verbs.nativ.abi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.foreign.MemoryLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layout tests' common part: gcc as the oracle for C structs. One C program, compiled against
 * the installed header, prints the size of each struct and the offset and size of each member the
 * Java layout names; every one must match. A subclass names the header and the structs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class GccLayouts {
    private final Map<String, String> answers = new LinkedHashMap<>();
    private final Map<String, MemoryLayout> structs;
    private final String header;
    private final String debianPackage;
    private final int minimumMembers;

    /**
     * @param header         the header that declares the structs ("infiniband/verbs.h")
     * @param debianPackage  the package that installs it
     * @param structs        C type ("struct ibv_qp") to its Java layout
     * @param minimumMembers how many members at least are compared (so that a lost map shows)
     */
    GccLayouts(String header, String debianPackage, Map<String, MemoryLayout> structs, int minimumMembers) {
        this.header = header;
        this.debianPackage = debianPackage;
        this.structs = structs;
        this.minimumMembers = minimumMembers;
    }

    @BeforeAll
    void askGcc() {
        CCompiler.assumeAvailable(Path.of("/usr/include", header), debianPackage);
        StringBuilder c = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n#include <" + header + ">\n");
        c.append("int main(void) {\n");
        for (var e : structs.entrySet()) {
            String t = e.getKey();
            c.append(String.format("  printf(\"%s sizeof %%zu\\n\", sizeof(%s));%n", t, t));
            for (CLayout.Member m : CLayout.members(e.getValue())) {
                c.append(String.format("  printf(\"%s %s %%zu %%zu\\n\", offsetof(%s, %s), sizeof(((%s *)0)->%s));%n",
                        t, m.path(), t, m.path(), t, m.path()));
            }
        }
        c.append("  return 0;\n}\n");
        for (String line : CCompiler.run(c.toString()).split("\n")) {
            // "struct ibv_qp qp_num 52 4": the C type has a space in it, so the key ends at the third space.
            int cut = line.indexOf(' ', line.indexOf(' ') + 1);
            int cut2 = line.indexOf(' ', cut + 1);
            answers.put(line.substring(0, cut2), line.substring(cut2 + 1));
        }
    }

    @Test
    void everyStructHasTheSizeGccGivesIt() {
        assertThat(wrongSizes()).isEmpty();
    }

    @Test
    void everyMemberHasTheOffsetAndSizeGccGivesIt() {
        assertThat(wrongMembers()).isEmpty();
        assertThat(memberCount()).isGreaterThan(minimumMembers);
    }

    /** Each struct whose size differs: "struct x: gcc 40, Java 48". */
    private List<String> wrongSizes() {
        List<String> wrong = new ArrayList<>();
        for (var e : structs.entrySet()) {
            String c = answers.get(e.getKey() + " sizeof");
            String java = Long.toString(e.getValue().byteSize());
            if (!java.equals(c)) {
                wrong.add(e.getKey() + ": gcc " + c + ", Java " + java);
            }
        }
        return wrong;
    }

    /** Each member whose offset or size differs. */
    private List<String> wrongMembers() {
        List<String> wrong = new ArrayList<>();
        for (var e : structs.entrySet()) {
            for (CLayout.Member m : CLayout.members(e.getValue())) {
                String c = answers.get(e.getKey() + " " + m.path());
                String java = m.offset() + " " + m.size();
                if (!java.equals(c)) {
                    wrong.add(e.getKey() + "." + m.path() + ": gcc (offset size) " + c + ", Java " + java);
                }
            }
        }
        return wrong;
    }

    /** How many members were compared. */
    private int memberCount() {
        int n = 0;
        for (MemoryLayout l : structs.values()) {
            n += CLayout.members(l).size();
        }
        return n;
    }
}
