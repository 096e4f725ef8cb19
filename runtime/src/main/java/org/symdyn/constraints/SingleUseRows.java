package org.symdyn.constraints;

import java.util.function.Supplier;

/** A row provider added to a set as an instance: the supplier that hands it out to the first bind only. */
final class SingleUseRows implements Supplier<ConstraintRows> {
    final ConstraintRows rows;
    private boolean used;

    SingleUseRows(ConstraintRows rows) {
        this.rows = rows;
    }

    @Override
    public synchronized ConstraintRows get() {
        if (used) {
            throw new IllegalStateException("the constraint rows " + rows.getClass().getName() + " were given as an"
                    + " instance and are bound already: to bind the set more than once, add them with "
                    + "Builder.addRows(Supplier, name, id)");
        }
        used = true;
        return rows;
    }
}
