package io.quackjvm.moduletests;

import io.quackjvm.api.spi.WritePolicyProvider;
import io.quackjvm.testkit.WritePolicyContract;

/** Our "per-collection" write policy, found by ServiceLoader on the module path, passes the provider test kit. */
class PerCollectionWritePolicyContractTests extends WritePolicyContract {

    @Override
    protected WritePolicyProvider provider() {
        return discovered(WritePolicyProvider.class, "per-collection");
    }
}
