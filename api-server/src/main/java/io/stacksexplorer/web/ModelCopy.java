package io.stacksexplorer.web;

import io.micronaut.core.beans.BeanIntrospection;
import io.micronaut.core.beans.BeanProperty;
import io.micronaut.core.type.Argument;

/**
 * Copies a generated model into another generated model with a subset of its properties, by
 * property name, through compile-time bean introspection (no reflection, no JSON round trip).
 * Used to serve one assembled {@code Transaction} in the mempool or confirmed shape, whose
 * generated classes share property names but no Java type.
 */
final class ModelCopy {

    private ModelCopy() {
    }

    @SuppressWarnings("unchecked")
    static <T> T copy(Object source, Class<T> type) {
        BeanIntrospection<Object> from = BeanIntrospection.getIntrospection((Class<Object>) source.getClass());
        BeanIntrospection<T> to = BeanIntrospection.getIntrospection(type);
        Argument<?>[] constructorArguments = to.getConstructorArguments();
        Object[] values = new Object[constructorArguments.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = from.getRequiredProperty(constructorArguments[i].getName(), Object.class).get(source);
        }
        T target = to.instantiate(values);
        for (BeanProperty<T, Object> property : to.getBeanProperties()) {
            if (!property.isReadOnly()) {
                from.getProperty(property.getName())
                        .map(p -> p.get(source))
                        .ifPresent(value -> property.set(target, value));
            }
        }
        return target;
    }
}
