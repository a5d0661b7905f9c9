package io.stacksexplorer.web;

import io.micronaut.core.beans.BeanIntrospection;
import io.micronaut.core.beans.BeanProperty;
import io.micronaut.core.type.Argument;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Copies a generated model into another generated model with a subset of its properties, by
 * property name, through compile-time bean introspection (no reflection, no JSON round trip).
 * Used to serve one assembled {@code Transaction} in the mempool or confirmed shape, whose
 * generated classes share property names but no Java type. The name matching is done once per pair
 * of classes (a {@link Plan}); a copy is then a loop over property handles.
 */
final class ModelCopy {

    private static final Map<Class<?>, Map<Class<?>, Plan<?>>> PLANS = new ConcurrentHashMap<>();

    private ModelCopy() {
    }

    @SuppressWarnings("unchecked")
    static <T> T copy(Object source, Class<T> type) {
        Plan<T> plan = (Plan<T>) PLANS.computeIfAbsent(source.getClass(), c -> new ConcurrentHashMap<>())
                .computeIfAbsent(type, t -> Plan.of(source.getClass(), t));
        return plan.copy(source);
    }

    /** Which source property feeds each constructor argument and each writable target property. */
    private record Plan<T>(BeanIntrospection<T> to, List<BeanProperty<Object, Object>> constructorSources,
                           List<BeanProperty<T, Object>> targets, List<BeanProperty<Object, Object>> sources) {

        @SuppressWarnings("unchecked")
        static <T> Plan<T> of(Class<?> sourceType, Class<T> type) {
            BeanIntrospection<Object> from = BeanIntrospection.getIntrospection((Class<Object>) sourceType);
            BeanIntrospection<T> to = BeanIntrospection.getIntrospection(type);
            List<BeanProperty<Object, Object>> constructorSources = new ArrayList<>();
            for (Argument<?> argument : to.getConstructorArguments()) {
                constructorSources.add(from.getRequiredProperty(argument.getName(), Object.class));
            }
            List<BeanProperty<T, Object>> targets = new ArrayList<>();
            List<BeanProperty<Object, Object>> sources = new ArrayList<>();
            for (BeanProperty<T, Object> property : to.getBeanProperties()) {
                if (!property.isReadOnly()) {
                    from.getProperty(property.getName()).ifPresent(source -> {
                        targets.add(property);
                        sources.add((BeanProperty<Object, Object>) (BeanProperty<?, ?>) source);
                    });
                }
            }
            return new Plan<>(to, List.copyOf(constructorSources), List.copyOf(targets), List.copyOf(sources));
        }

        T copy(Object source) {
            Object[] values = new Object[constructorSources.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = constructorSources.get(i).get(source);
            }
            // Not strict: a required property may be nullable (replaced_by_tx_id), and the generated
            // constructor does not mark such arguments @Nullable.
            T target = to.instantiate(false, values);
            for (int i = 0; i < targets.size(); i++) {
                Object value = sources.get(i).get(source);
                if (value != null) {
                    // An absent source value leaves the target's own default (e.g. an empty list).
                    targets.get(i).set(target, value);
                }
            }
            return target;
        }
    }
}
