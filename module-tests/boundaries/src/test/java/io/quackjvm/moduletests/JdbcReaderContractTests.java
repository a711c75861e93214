package io.quackjvm.moduletests;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.testkit.ResultReaderContract;

/** Our "jdbc" reader, found by ServiceLoader on the module path, passes the provider test kit. */
class JdbcReaderContractTests extends ResultReaderContract {

    @Override
    protected ResultReaderProvider provider() {
        return discovered(ResultReaderProvider.class, "jdbc");
    }
}
