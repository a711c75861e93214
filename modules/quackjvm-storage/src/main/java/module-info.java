/**
 * Object-table layouts. Provides the {@code "blob"} layout (one serialised object per row) and the
 * {@code "columnar"} layout (one typed column per field).
 */
module io.quackjvm.storage {
    requires io.quackjvm.api;
    requires com.esotericsoftware.kryo;
    requires org.objenesis;
    // Objenesis (an automatic module) instantiates classes through sun.reflect.ReflectionFactory but cannot
    // pull jdk.unsupported into the module graph itself.
    requires jdk.unsupported;

    provides io.quackjvm.api.spi.ObjectLayoutProvider with io.quackjvm.storage.blob.BlobLayoutProvider,
            io.quackjvm.storage.columnar.ColumnarLayoutProvider;
}
