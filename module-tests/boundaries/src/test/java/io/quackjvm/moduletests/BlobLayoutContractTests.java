package io.quackjvm.moduletests;

import io.quackjvm.api.spi.ObjectLayoutProvider;

/** Our "blob" layout, found by ServiceLoader on the module path, passes the provider test kit. */
class BlobLayoutContractTests extends PartLayoutContract {

    @Override
    protected ObjectLayoutProvider provider() {
        return discovered(ObjectLayoutProvider.class, "blob");
    }
}
