package io.stacksexplorer.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Keeps the one-way flow of the layout: web → query → database; ingest/demo → write → database. */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importProductionClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stacksexplorer");
    }

    @Test
    void controllersNeverTouchSql() {
        noClasses().that().resideInAPackage("io.stacksexplorer.web..")
                .should().dependOnClassesThat(resideInAnyPackage("java.sql..", "javax.sql..",
                        "io.micronaut.data.jdbc..", "io.micronaut.data.repository..", "io.micronaut.transaction..",
                        "io.stacksexplorer.write..")
                        // Storage exception types may be mapped to 503; that is not touching SQL.
                        .and(not(resideInAPackage("io.micronaut.transaction.exceptions.."))))
                .because("controllers read through the query facades only")
                .check(classes);
    }

    @Test
    void theWritePathKnowsNothingOfTheWeb() {
        noClasses().that().resideInAPackage("io.stacksexplorer.write..")
                .should().dependOnClassesThat().resideInAnyPackage("io.micronaut.http..", "io.stacksexplorer.web..",
                        "io.stacksexplorer.server..", "io.stacksexplorer.query..")
                .because("data enters through one path, independent of how it is served")
                .check(classes);
    }

    @Test
    void theQueryLayerNeverWritesNorServes() {
        noClasses().that().resideInAPackage("io.stacksexplorer.query..")
                .should().dependOnClassesThat().resideInAnyPackage("io.stacksexplorer.write..",
                        "io.stacksexplorer.web..", "io.stacksexplorer.server..", "io.micronaut.http..")
                .check(classes);
    }

    @Test
    void theCodecIsFrameworkFree() {
        classes().that().resideInAPackage("io.stacksexplorer.codec..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.stacksexplorer.codec..")
                .because("the wire-format codec is plain Java, reusable and fast to test")
                .check(classes);
    }

    @Test
    void storesAndRepositoriesStayInsideTheQueryLayer() {
        classes().that().haveSimpleNameEndingWith("Store").or().haveSimpleNameEndingWith("Repository")
                .or().areMetaAnnotatedWith(io.micronaut.data.annotation.Repository.class)
                .should().resideInAPackage("io.stacksexplorer.query")
                .andShould().notBePublic()
                .check(classes);
    }

    /**
     * The read side's SQL is in its stores, one per aggregate (…Store), and the change log's in
     * ChangeQueries: nothing else in the query layer opens a statement, declares a repository query
     * or uses the plain-JDBC helper. Row records may read a ResultSet (their column positions sit
     * beside their column lists).
     */
    @Test
    void theReadSqlLivesInTheStores() {
        noClasses().that().resideInAPackage("io.stacksexplorer.query..").and(not(OWNS_READ_SQL))
                .should().dependOnClassesThat(resideInAnyPackage("javax.sql..", "io.micronaut.data.jdbc..",
                        "io.micronaut.data.repository..", "io.micronaut.data.runtime..")
                        .or(JavaClass.Predicates.belongToAnyOf(java.sql.Connection.class,
                                java.sql.PreparedStatement.class, java.sql.Statement.class,
                                io.micronaut.data.annotation.Query.class))
                        .or(JavaClass.Predicates.simpleName("PlainJdbc")))
                .because("each aggregate's SQL is in one visible place, its store")
                .check(classes);
        methods().that().areAnnotatedWith(io.micronaut.data.annotation.Query.class)
                .should().beDeclaredInClassesThat(OWNS_READ_SQL)
                .check(classes);
    }

    /**
     * A store (or ChangeQueries, the change log's, or the plain-JDBC helper), with what Micronaut
     * generates for it ({@code $AddressStore$Intercepted$Definition}, {@code AddressStore$Intercepted}).
     */
    private static final DescribedPredicate<JavaClass> OWNS_READ_SQL = DescribedPredicate.describe(
            "a store of the query layer", c -> {
                String owner = c.getName().substring(c.getPackageName().length() + 1).replaceFirst("^\\$", "")
                        .split("\\$")[0];
                return c.getPackageName().equals("io.stacksexplorer.query") && (owner.endsWith("Store")
                        || owner.equals("ChangeQueries") || owner.equals("PlainJdbc"));
            });
}
