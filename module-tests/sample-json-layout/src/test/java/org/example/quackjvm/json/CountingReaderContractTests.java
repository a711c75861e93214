package org.example.quackjvm.json;

import io.quackjvm.api.spi.ResultReaderProvider;
import io.quackjvm.testkit.ResultReaderContract;

/** The counting reader passes the provider test kit. */
class CountingReaderContractTests extends ResultReaderContract {

    @Override
    protected ResultReaderProvider provider() {
        return new CountingReaderProvider();
    }
}
