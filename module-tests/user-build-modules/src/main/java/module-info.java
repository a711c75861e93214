// tag::module-info[]
module com.example.shop {
    requires io.quackjvm;    // the API (and CQEngine, which it requires transitively) with the default providers

    // objects stored with the default blob layout: Kryo reads and writes their fields
    opens com.example.shop.orders to com.esotericsoftware.kryo;
    // records stored with the columnar layout: quackjvm reads their components and calls their constructor
    opens com.example.shop.catalog to io.quackjvm.api;
    // records that SQL results fill (database.query(sql).records(...))
    opens com.example.shop.reports to io.quackjvm.api;
}
// end::module-info[]
