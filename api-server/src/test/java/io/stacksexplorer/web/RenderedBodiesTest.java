package io.stacksexplorer.web;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * HttpCaching keeps a rendered body by its model, which is sound only if two equal models always
 * serialize to the same bytes: every generated model declares its own equals and hashCode, and each
 * property is a value whose equality means the same JSON (no map, whose equal instances may iterate
 * in different orders; no floating point or BigDecimal, equal across spellings).
 */
class RenderedBodiesTest {

    private static final Set<Class<?>> VALUES = Set.of(String.class, Long.class, Integer.class, Boolean.class);

    @Test
    void equalGeneratedModelsSerializeAlike() throws Exception {
        List<String> problems = new ArrayList<>();
        int models = 0;
        for (JavaClass javaClass : new ClassFileImporter().importPackages(HttpCaching.MODEL_PACKAGE)) {
            Class<?> type = javaClass.reflect();
            if (type.isEnum() || type.isInterface() || type.isAnonymousClass() || type.getName().contains("$")) {
                continue;
            }
            models++;
            if (type.getDeclaredMethod("equals", Object.class).getDeclaringClass() != type
                    || type.getDeclaredMethod("hashCode").getDeclaringClass() != type) {
                problems.add(type.getSimpleName() + " has no equals and hashCode of its own");
            }
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                Type fieldType = field.getGenericType();
                if (fieldType instanceof ParameterizedType list && list.getRawType() == List.class) {
                    fieldType = list.getActualTypeArguments()[0];
                }
                if (!(fieldType instanceof Class<?> c) || !(VALUES.contains(c)
                        || HttpCaching.MODEL_PACKAGE.equals(c.getPackageName()))) {
                    problems.add(type.getSimpleName() + "." + field.getName() + ": " + field.getGenericType());
                }
            }
        }
        assertFalse(models < 20, "generated models found: " + models);
        assertEquals(List.of(), problems);
    }
}
