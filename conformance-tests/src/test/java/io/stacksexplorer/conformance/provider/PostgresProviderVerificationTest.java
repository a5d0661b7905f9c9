package io.stacksexplorer.conformance.provider;

import au.com.dius.pact.provider.junitsupport.Provider;
import au.com.dius.pact.provider.junitsupport.loader.PactFolder;
import io.stacksexplorer.conformance.Contract;
import io.stacksexplorer.http.TestDatabase;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * Provider verification on PostgreSQL (a schema of this class's own in PG_HOST/PG_DATABASE);
 * runs only with {@code -Dpg.tests=true}.
 */
@Provider(Contract.PROVIDER)
@PactFolder(Contract.PACT_FOLDER)
@EnabledIf("io.stacksexplorer.http.TestDatabase#postgresEnabled")
class PostgresProviderVerificationTest extends ProviderVerification {
    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
