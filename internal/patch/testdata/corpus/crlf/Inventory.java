package com.example.inventory;

// Test input for the patch corpus; the corpus loader gives every file
// under crlf/ CRLF line endings.

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

public final class Inventory {

    public static final class Item {
        private final String sku;
        private final String name;
        private int quantity;

        public Item(String sku, String name, int quantity) {
            this.sku = Objects.requireNonNull(sku, "sku");
            this.name = Objects.requireNonNull(name, "name");
            this.quantity = quantity;
        }

        public String getSku() {
            return sku;
        }

        public String getName() {
            return name;
        }

        public int getQuantity() {
            return quantity;
        }
    }

    private final Map<String, Item> items = new HashMap<>();

    public void add(String sku, String name, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
        Item item = items.get(sku);
        if (item == null) {
            items.put(sku, new Item(sku, name, quantity));
            return;
        }
        item.quantity += quantity;
    }

    public void remove(String sku, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive: " + quantity);
        }
        Item item = items.get(sku);
        if (item == null) {
            throw new IllegalStateException("no such item: " + sku);
        }
        if (item.quantity < quantity) {
            throw new IllegalStateException("not enough " + sku + ": " + item.quantity);
        }
        item.quantity -= quantity;
        if (item.quantity == 0) {
            items.remove(sku);
        }
    }

    public int quantity(String sku) {
        Item item = items.get(sku);
        if (item == null) {
            return 0;
        }
        return item.quantity;
    }

    public List<Item> lowStock(int threshold) {
        List<Item> out = new ArrayList<>();
        for (Item item : items.values()) {
            if (item.quantity < threshold) {
                out.add(item);
            }
        }
        out.sort((a, b) -> a.sku.compareTo(b.sku));
        return Collections.unmodifiableList(out);
    }

    public int size() {
        return items.size();
    }
}
