package io.stacksexplorer.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
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
    void repositoriesStayInsideTheQueryLayer() {
        classes().that().haveSimpleNameEndingWith("Repository")
                .should().resideInAPackage("io.stacksexplorer.query..")
                .andShould().notBePublic()
                .check(classes);
    }
}
