package io.quackjvm.moduletests;

import io.quackjvm.api.spi.ConnectionPoolProvider;
import io.quackjvm.testkit.ConnectionPoolContract;

/** Our "duplicating" connection pool, found by ServiceLoader on the module path, passes the provider test kit. */
class DuplicatingPoolContractTests extends ConnectionPoolContract {

    @Override
    protected ConnectionPoolProvider provider() {
        return discovered(ConnectionPoolProvider.class, "duplicating");
    }
}
