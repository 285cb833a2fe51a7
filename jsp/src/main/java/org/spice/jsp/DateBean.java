package org.spice.jsp;

import java.io.Serializable;
import java.time.LocalDate;

/**
 * The Java bean the JSP probe asks for today's date, as in the white paper's JSP test.
 * ISO {@code yyyy-mm-dd} is always 10 characters, so the page keeps its exact size every day.
 */
public class DateBean implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Today's date in the server's time zone, e.g. {@code 2026-11-22}. */
    public String getToday() {
        return LocalDate.now().toString();
    }
}
