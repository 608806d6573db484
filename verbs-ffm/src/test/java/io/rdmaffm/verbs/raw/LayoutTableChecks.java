package io.rdmaffm.verbs.raw;

import org.junit.jupiter.api.Test;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Holds every declared Java layout and constant to a shim's table, compiled from the installed rdma-core
 * headers: the loaded shim's ({@link LayoutTableTest}) or the cross-built aarch64 shim's
 * ({@link Aarch64LayoutTableTest}). Needs no RDMA device.
 */
abstract class LayoutTableChecks {
    /** The table the Java layouts, as this JVM computes them, are held to. */
    abstract LayoutTable table();

    static List<StructLayout> declaredStructs() throws IllegalAccessException {
        List<StructLayout> out = new ArrayList<>();
        for (Field f : Structs.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == StructLayout.class) {
                f.setAccessible(true);
                out.add((StructLayout) f.get(null));
            }
        }
        return out;
    }

    @Test
    void everyDeclaredStructHasTheNativeSizeAndEveryNamedMemberTheNativeOffset() throws IllegalAccessException {
        List<StructLayout> structs = declaredStructs();
        assertTrue(structs.size() >= 40, "expected the full set of verbs structs, found " + structs.size());
        List<String> problems = new ArrayList<>();
        int checkedMembers = 0;
        for (StructLayout s : structs) {
            String name = s.name().orElseThrow(() -> new AssertionError("unnamed struct layout in Structs"));
            Long size = table().sizes().get(name);
            if (size == null) {
                problems.add("sizeof(" + name + ") is not in the shim's table");
            } else if (size != s.byteSize()) {
                problems.add("sizeof(" + name + "): Java " + s.byteSize() + ", C " + size);
            }
            checkedMembers += checkMembers(name, s, "", 0, structs, problems);
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(checkedMembers > 300, "too few members checked: " + checkedMembers);
    }

    private int checkMembers(String struct, GroupLayout group, String prefix, long base,
                             List<StructLayout> declared, List<String> problems) {
        int checked = 0;
        long offset = 0;
        for (MemoryLayout m : group.memberLayouts()) {
            long here = base + (group instanceof UnionLayout ? 0 : offset);
            if (!(m instanceof PaddingLayout)) {
                String path = prefix;
                if (m.name().isPresent()) {
                    path = prefix.isEmpty() ? m.name().get() : prefix + "." + m.name().get();
                    Long c = table().offsets().get(struct + "." + path);
                    checked++;
                    if (c == null) {
                        problems.add("offsetof(" + struct + ", " + path + ") is not in the shim's table");
                    } else if (c != here) {
                        problems.add("offsetof(" + struct + ", " + path + "): Java " + here + ", C " + c);
                    }
                }
                // A member that is a declared struct is checked on its own; only inline groups are walked.
                if (m instanceof GroupLayout g && !isDeclared(g, declared)) {
                    checked += checkMembers(struct, g, path, here, declared, problems);
                }
            }
            offset += m.byteSize();
        }
        return checked;
    }

    private static boolean isDeclared(GroupLayout g, List<StructLayout> declared) {
        for (StructLayout s : declared) {
            if (s.withoutName().equals(g.withoutName())) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyDeclaredConstantHasTheNativeValue() throws IllegalAccessException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Field f : Constants.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || !Modifier.isPublic(f.getModifiers())) {
                continue;
            }
            long javaValue = f.getType() == long.class ? f.getLong(null) : f.getInt(null);
            Long c = table().constants().get(f.getName());
            checked++;
            if (c == null) {
                problems.add(f.getName() + " is not in the shim's table");
            } else if (c != javaValue) {
                problems.add(f.getName() + ": Java " + javaValue + ", C " + c);
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(checked > 200, "too few constants checked: " + checked);
    }

    @Test
    void offsetHelperFollowsAnonymousUnionsLikeC() {
        assertEquals(table().offsets().get("ibv_wc.imm_data"), Structs.offset(Structs.ibv_wc, "imm_data"));
        assertEquals(table().offsets().get("ibv_send_wr.wr.atomic.swap"),
                Structs.offset(Structs.ibv_send_wr, "wr.atomic.swap"));
        assertEquals(table().offsets().get("ibv_send_wr.bind_mw.bind_info.length"),
                Structs.offset(Structs.ibv_send_wr, "bind_mw.bind_info.length"));
        assertEquals(table().offsets().get("ibv_qp_attr.ah_attr.grh.sgid_index"),
                Structs.offset(Structs.ibv_qp_attr, "ah_attr.grh.sgid_index"));
    }

    /**
     * The UD ESTABLISHED event reader walks rdma_cm_event → param.ud → ah_attr → grh: paths through an anonymous
     * union and two nested declared structs, which the member walk above checks only one level at a time.
     */
    @Test
    void udEventAddressVectorPathsMatchC() {
        String[] paths = {"param.ud.ah_attr.grh.dgid", "param.ud.ah_attr.grh.flow_label",
            "param.ud.ah_attr.grh.sgid_index", "param.ud.ah_attr.grh.hop_limit", "param.ud.ah_attr.grh.traffic_class",
            "param.ud.ah_attr.dlid", "param.ud.ah_attr.sl", "param.ud.ah_attr.src_path_bits",
            "param.ud.ah_attr.static_rate", "param.ud.ah_attr.is_global", "param.ud.ah_attr.port_num"};
        for (String path : paths) {
            Long c = table().offsets().get("rdma_cm_event." + path);
            assertTrue(c != null, "offsetof(rdma_cm_event, " + path + ") is not in the shim's table");
            assertEquals(c, Structs.offset(Structs.rdma_cm_event, path), path);
        }
        assertEquals(table().constants().get("RDMA_UDP_QKEY"), (long) Constants.RDMA_UDP_QKEY);
    }

    /**
     * Every typed offset constant is the C offset of the member its name spells: holder class = struct,
     * field name = member path with "__" for ".". A constant resolved from the wrong path, or a path the layout
     * resolves differently from C (through an anonymous union, say), fails here.
     */
    @Test
    void everyTypedOffsetConstantIsTheNativeOffsetOfTheMemberItNames() throws IllegalAccessException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Class<?> holder : Offsets.class.getDeclaredClasses()) {
            for (Field f : holder.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) || f.getType() != long.class) {
                    continue;
                }
                String member = holder.getSimpleName() + "." + f.getName().replace("__", ".");
                Long c = table().offsets().get(member);
                checked++;
                if (c == null) {
                    problems.add("offsetof(" + member + ") is not in the shim's table");
                } else if (c != f.getLong(null)) {
                    problems.add("offsetof(" + member + "): Java " + f.getLong(null) + ", C " + c);
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(checked > 200, "too few offset constants checked: " + checked);
    }
}
