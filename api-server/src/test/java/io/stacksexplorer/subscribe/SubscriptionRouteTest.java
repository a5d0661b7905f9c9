package io.stacksexplorer.subscribe;

import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.stacksexplorer.server.api.SubscriptionsApi;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The event stream's controller is written by hand (an event stream is a Publisher, generated
 * interfaces return plain bodies), so the generated interface of operation streamNotifications
 * checks it instead: same path, same query parameters in the same order. A change of the spec that
 * the controller does not follow fails here.
 */
class SubscriptionRouteTest {

    @Test
    void theControllerServesTheGeneratedOperation() throws Exception {
        Method generated = Arrays.stream(SubscriptionsApi.class.getMethods())
                .filter(m -> m.getName().equals("streamNotifications")).findFirst().orElseThrow();
        Method ours = Arrays.stream(NotificationStream.class.getDeclaredMethods())
                .filter(m -> m.getName().equals("streamNotifications")).findFirst().orElseThrow();
        assertEquals(generated.getAnnotation(Get.class).value(), ours.getAnnotation(Get.class).value());
        assertEquals(queryNames(generated), queryNames(ours));
        assertTrue(Arrays.asList(ours.getAnnotation(Get.class).produces()).contains("text/event-stream"));
    }

    private static List<String> queryNames(Method m) {
        List<String> names = new ArrayList<>();
        for (Parameter p : m.getParameters()) {
            QueryValue q = p.getAnnotation(QueryValue.class);
            if (q != null) {
                names.add(q.value());
            }
        }
        return names;
    }
}
