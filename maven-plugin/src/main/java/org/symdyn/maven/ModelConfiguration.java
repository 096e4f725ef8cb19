package org.symdyn.maven;

/**
 * Settings of one model, the {@code <model>} elements of the {@code models} parameter:
 * <pre>
 * &lt;models&gt;
 *   &lt;model&gt;
 *     &lt;file&gt;legged/hyq.urdf&lt;/file&gt;          &lt;!-- relative to sourceDirectory, '/' separated --&gt;
 *     &lt;className&gt;HyQ&lt;/className&gt;          &lt;!-- optional --&gt;
 *     &lt;floatingBase&gt;true&lt;/floatingBase&gt;   &lt;!-- optional, else the floatingBase parameter --&gt;
 *   &lt;/model&gt;
 * &lt;/models&gt;
 * </pre>
 */
public class ModelConfiguration {
    private String file;
    private String className;
    private Boolean floatingBase;

    public String getFile() {
        return file;
    }

    public void setFile(String file) {
        this.file = file;
    }

    public String getClassName() {
        return className;
    }

    public void setClassName(String className) {
        this.className = className;
    }

    public Boolean getFloatingBase() {
        return floatingBase;
    }

    public void setFloatingBase(Boolean floatingBase) {
        this.floatingBase = floatingBase;
    }

    @Override
    public String toString() {
        return "model " + file;
    }
}
