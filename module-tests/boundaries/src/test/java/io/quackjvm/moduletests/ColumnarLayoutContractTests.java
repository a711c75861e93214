package io.quackjvm.moduletests;

import io.quackjvm.api.ColumnarLayout;
import io.quackjvm.api.spi.ObjectLayoutProvider;
import io.quackjvm.moduletests.model.Part;

/** Our "columnar" layout, found by ServiceLoader on the module path, passes the provider test kit. */
class ColumnarLayoutContractTests extends PartLayoutContract {

    @Override
    protected ObjectLayoutProvider provider() {
        return discovered(ObjectLayoutProvider.class, "columnar");
    }

    @Override
    protected ColumnarLayout<? super Part> columnarLayout() {
        return ColumnarLayout.ofRecord(Part.class);
    }
}
