/**
 * Object-table layouts. Provides the {@code "blob"} layout: one serialised object per row.
 */
module io.quackjvm.storage {
    requires io.quackjvm.api;
    requires com.esotericsoftware.kryo;
    requires org.objenesis;

    provides io.quackjvm.api.spi.ObjectLayoutProvider with io.quackjvm.storage.blob.BlobLayoutProvider;
}
