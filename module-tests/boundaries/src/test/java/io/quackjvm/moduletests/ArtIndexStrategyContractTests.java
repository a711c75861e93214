package io.quackjvm.moduletests;

import io.quackjvm.api.spi.IndexStrategyProvider;
import io.quackjvm.testkit.IndexStrategyContract;

/** Our "art" index strategy, found by ServiceLoader on the module path, passes the provider test kit. */
class ArtIndexStrategyContractTests extends IndexStrategyContract {

    @Override
    protected IndexStrategyProvider provider() {
        return discovered(IndexStrategyProvider.class, "art");
    }
}
