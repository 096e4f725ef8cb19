package org.symdyn.io.mjcf;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.symdyn.io.Messages;
import org.symdyn.io.Spelling;
import org.symdyn.io.XmlElement;

/**
 * The attributes MuJoCo's schema allows on each MJCF element, and the check that warns about any other: MuJoCo refuses
 * a file with an attribute its schema does not list ("unrecognized attribute"), so a misspelt {@code dampin="2"} never
 * loads there, where a reader that skips what it does not ask for would build a model without that damping and say
 * nothing. Each unknown attribute is a located warning naming the element and, where one is close, the attribute
 * meant (an error under strict reading, as every reader warning).
 *
 * <p>The lists are the union of MuJoCo 2.3 to 3.12 (attributes removed or renamed along the way, such as
 * {@code compiler convexhull} or {@code option collision}, stay accepted): a file valid for some MuJoCo is never warned
 * about. Elements are looked up by their parent, since one name means different things in different places
 * ({@code <joint>} in a body, in {@code <equality>}, in a fixed tendon; {@code <contact>} as a section and as a
 * sensor). Bodies, the world body and {@code <frame>} share their children's lists; a {@code <default>} child has
 * the list of the element it gives defaults for. Elements not listed here ({@code <visual>}'s, {@code <custom>}'s,
 * plugins, composites, actuator kinds of MuJoCo releases this table predates) are not checked: the readers report
 * the elements they do not know.
 */
final class MjcfAttributes {
    private static final String ORIENTATION = "pos quat axisangle xyaxes zaxis euler";
    private static final String JOINT = "name class type group pos axis springdamper limited actuatorfrclimited"
            + " solreflimit solimplimit solreffriction solimpfriction stiffness range actuatorfrcrange"
            + " actuatorgravcomp margin ref springref armature damping frictionloss user";
    private static final String GEOM = "name class type contype conaffinity condim group priority size material"
            + " friction mass density shellinertia solmix solref solimp margin gap fromto hfield mesh fitscale rgba"
            + " fluidshape fluidcoef surfacevel adhesion user " + ORIENTATION;
    private static final String SITE = "name class type group material size fromto rgba user " + ORIENTATION;
    private static final String CAMERA = "name class projection orthographic fovy ipd resolution output mode target"
            + " focal focalpixel principal principalpixel sensorsize user " + ORIENTATION;
    private static final String LIGHT = "name class directional type castshadow active pos dir bulbradius intensity"
            + " range attenuation cutoff exponent ambient diffuse specular mode target texture softness";
    private static final String MESH = "name class content_type file vertex normal texcoord face refpos refquat scale"
            + " smoothnormal maxhullvert inertia builtin params material";
    private static final String MATERIAL = "name class texture texrepeat texuniform emission specular shininess"
            + " reflectance metallic roughness rgba";
    private static final String PAIR = "name class geom1 geom2 condim friction solref solreffriction solimp gap margin"
            + " adhesion";
    private static final String EQUALITY = "name class active solref solimp";
    private static final String TENDON = "name class group limited actuatorfrclimited range actuatorfrcrange"
            + " solreflimit solimplimit solreffriction solimpfriction frictionloss springlength margin stiffness"
            + " damping armature user";
    private static final String ACTUATOR = "name class group nsample interp delay ctrllimited forcelimited actlimited"
            + " ctrlrange forcerange actrange lengthrange gear cranklength user joint jointinparent tendon slidersite"
            + " cranksite site refsite body actdim damping armature";
    private static final String SENSOR = "name noise cutoff user nsample interp delay interval";

    /** Allowed attributes by "parent>element", the parent's name normalised by {@link #context}. */
    private static final Map<String, Set<String>> ALLOWED = new HashMap<>();

    static {
        allow("mujoco", "compiler", "autolimits boundmass boundinertia settotalmass balanceinertia strippath"
                + " coordinate angle fitaabb eulerseq meshdir texturedir discardvisual convexhull usethread fusestatic"
                + " inertiafromgeom inertiagrouprange exactmeshinertia saveinertial assetdir alignfree conflict");
        allow("compiler", "lengthrange", "mode useexisting uselimit accel maxforce timeconst timestep inttotal"
                + " interval tolrange");
        allow("mujoco", "option", "timestep apirate impratio tolerance ls_tolerance noslip_tolerance ccd_tolerance"
                + " sleep_tolerance mpr_tolerance gravity wind magnetic density viscosity o_margin o_solref o_solimp"
                + " o_friction integrator collision cone jacobian solver iterations ls_iterations noslip_iterations"
                + " ccd_iterations mpr_iterations sdf_iterations sdf_initpoints actuatorgroupdisable");
        allow("option", "flag", "constraint equality frictionloss limit contact spring damper passive gravity"
                + " clampctrl warmstart filterparent actuation refsafe sensor midphase eulerdamp autoreset nativeccd"
                + " island override energy fwdinv invdiscrete sensornoise multiccd sleep diagexact ipc");
        allow("mujoco", "size", "memory njmax nconmax nstack nuserdata nkey nuser_body nuser_jnt nuser_geom"
                + " nuser_site nuser_cam nuser_tendon nuser_actuator nuser_sensor");
        allow("mujoco", "statistic", "meaninertia meanmass meansize extent center");
        for (String parent : List.of("mujoco", "default")) {
            allow(parent, "default", "class");
        }

        allow("asset", "mesh", MESH);
        allow("asset", "hfield", "name content_type file nrow ncol size elevation");
        allow("asset", "skin", "name file material rgba inflate vertex texcoord face group");
        allow("asset", "texture", "name type colorspace content_type file gridsize gridlayout fileright fileleft"
                + " fileup filedown filefront fileback builtin rgb1 rgb2 mark markrgb random width height hflip vflip"
                + " nchannel");
        allow("asset", "material", MATERIAL);
        allow("asset", "model", "name file content_type");

        allow("mujoco", "worldbody", "name childclass gravcomp user " + ORIENTATION);
        allow("body", "body", "name childclass mocap gravcomp sleep simple user " + ORIENTATION);
        allow("body", "frame", "name childclass " + ORIENTATION);
        allow("body", "inertial", "mass diaginertia fullinertia " + ORIENTATION);
        allow("body", "joint", JOINT);
        allow("body", "freejoint", "name group align");
        allow("body", "geom", GEOM);
        allow("body", "site", SITE);
        allow("body", "camera", CAMERA);
        allow("body", "light", LIGHT);
        allow("body", "attach", "model body prefix frame");
        allow("body", "replicate", "count sep offset euler");

        allow("contact", "pair", PAIR);
        allow("contact", "exclude", "name body1 body2");

        allow("equality", "connect", EQUALITY + " body1 body2 anchor site1 site2");
        allow("equality", "weld", EQUALITY + " body1 body2 relpose anchor site1 site2 torquescale");
        allow("equality", "joint", EQUALITY + " joint1 joint2 polycoef");
        allow("equality", "tendon", EQUALITY + " tendon1 tendon2 polycoef");
        allow("equality", "flex", EQUALITY + " flex");
        allow("equality", "flexvert", EQUALITY + " flex");
        allow("equality", "distance", EQUALITY + " geom1 geom2 distance");

        allow("tendon", "spatial", TENDON + " width material rgba");
        allow("tendon", "fixed", TENDON);
        allow("spatial", "site", "site");
        allow("spatial", "geom", "geom sidesite");
        allow("spatial", "pulley", "divisor");
        allow("fixed", "joint", "joint coef");

        allow("actuator", "general", ACTUATOR + " dyntype gaintype biastype dynprm gainprm biasprm actearly input"
                + " velrange ffrange");
        allow("actuator", "motor", ACTUATOR);
        allow("actuator", "position", ACTUATOR + " inheritrange kp kv dampratio timeconst");
        allow("actuator", "velocity", ACTUATOR + " kv");
        allow("actuator", "intvelocity", ACTUATOR + " inheritrange kp kv dampratio");
        allow("actuator", "damper", ACTUATOR + " kv");
        allow("actuator", "cylinder", ACTUATOR + " timeconst area diameter bias");
        allow("actuator", "muscle", ACTUATOR + " timeconst tausmooth range force scale lmin lmax vmax fpmax fvmax");
        allow("actuator", "adhesion", ACTUATOR + " gain");

        for (String s : List.of("touch", "accelerometer", "velocimeter", "gyro", "force", "torque",
                "magnetometer")) {
            allow("sensor", s, SENSOR + " site");
        }
        allow("sensor", "camprojection", SENSOR + " site camera");
        allow("sensor", "rangefinder", SENSOR + " site camera data");
        for (String s : List.of("jointpos", "jointvel", "jointactuatorfrc", "ballquat", "ballangvel",
                "jointlimitpos", "jointlimitvel", "jointlimitfrc")) {
            allow("sensor", s, SENSOR + " joint");
        }
        for (String s : List.of("tendonpos", "tendonvel", "tendonactuatorfrc", "tendonlimitpos", "tendonlimitvel",
                "tendonlimitfrc")) {
            allow("sensor", s, SENSOR + " tendon");
        }
        for (String s : List.of("actuatorpos", "actuatorvel", "actuatorfrc")) {
            allow("sensor", s, SENSOR + " actuator");
        }
        for (String s : List.of("framepos", "framequat", "framexaxis", "frameyaxis", "framezaxis", "framelinvel",
                "frameangvel", "framelinacc", "frameangacc")) {
            allow("sensor", s, SENSOR + " objtype objname reftype refname");
        }
        for (String s : List.of("subtreecom", "subtreelinvel", "subtreeangmom")) {
            allow("sensor", s, SENSOR + " body");
        }
        allow("sensor", "insidesite", SENSOR + " site objtype objname");
        for (String s : List.of("distance", "normal", "fromto")) {
            allow("sensor", s, SENSOR + " geom1 geom2 body1 body2");
        }
        allow("sensor", "contact", SENSOR + " geom1 geom2 body1 body2 subtree1 subtree2 site num data reduce");
        for (String s : List.of("e_potential", "e_kinetic", "clock")) {
            allow("sensor", s, SENSOR);
        }
        allow("sensor", "tactile", SENSOR + " geom mesh");
        allow("sensor", "user", SENSOR + " objtype objname datatype needstage dim");

        allow("keyframe", "key", "name time qpos qvel act mpos mquat ctrl");
        // no <include>: MjcfSource has replaced every one by the included elements before this check

        // A default's child takes the attributes of the element it gives defaults for.
        allow("default", "joint", JOINT);
        allow("default", "geom", GEOM);
        allow("default", "site", SITE);
        allow("default", "camera", CAMERA);
        allow("default", "light", LIGHT);
        allow("default", "mesh", MESH);
        allow("default", "material", MATERIAL);
        allow("default", "pair", PAIR);
        allow("default", "equality", EQUALITY + " body1 body2 anchor site1 site2 relpose torquescale joint1 joint2"
                + " tendon1 tendon2 polycoef");
        allow("default", "tendon", TENDON + " width material rgba");
        for (String kind : List.of("general", "motor", "position", "velocity", "intvelocity", "damper", "cylinder",
                "muscle", "adhesion")) {
            ALLOWED.put("default>" + kind, ALLOWED.get("actuator>" + kind));
        }
    }

    private MjcfAttributes() {
    }

    private static void allow(String parent, String element, String attributes) {
        ALLOWED.put(parent + ">" + element, Set.of(attributes.trim().split("\\s+")));
    }

    /** The parent's name as the table keys it: every element that holds a body's children is "body". */
    private static String context(XmlElement parent) {
        return switch (parent.name()) {
            case "worldbody", "body", "frame", "replicate" -> "body";
            default -> parent.name();
        };
    }

    /**
     * Warns, at each element, about every attribute in no namespace that MuJoCo's schema does not allow there; walks
     * the whole tree below {@code root} (includes expanded).
     */
    static void check(MjcfSource source, XmlElement root) {
        checkOne(source, root, ROOT);
        List<XmlElement> stack = new java.util.ArrayList<>(List.of(root));
        while (!stack.isEmpty()) {
            XmlElement parent = stack.remove(stack.size() - 1);
            for (XmlElement e : source.children(parent)) {
                if (!e.namespace().isEmpty()) {
                    continue;
                }
                stack.add(e);
                Set<String> allowed = ALLOWED.get(context(parent) + ">" + e.name());
                if (allowed != null) {
                    checkOne(source, e, allowed);
                }
            }
        }
    }

    private static final Set<String> ROOT = Set.of("model");

    private static void checkOne(MjcfSource source, XmlElement e, Set<String> allowed) {
        for (String attribute : e.attributeNames()) {
            if (!allowed.contains(attribute)) {
                source.values(e).warning(e, "<" + e.name() + ">: unknown attribute '" + Messages.cut(attribute)
                        + "' (MuJoCo's schema has no such attribute here and refuses the file)"
                        + Spelling.suggestion(attribute, allowed) + "; ignored");
            }
        }
    }
}
