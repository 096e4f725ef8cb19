package org.symdyn.model;

import java.util.List;
import org.symdyn.contract.DcMotorSpec;
import org.symdyn.contract.DeviceSpec;
import org.symdyn.contract.EncoderSpec;
import org.symdyn.contract.ImuSpec;
import org.symdyn.contract.ServoSpec;
import org.symdyn.contract.SpringDamperSpec;
import org.symdyn.contract.TorqueSourceSpec;

/**
 * Where a declared actuator or sensor sits in the model: the joint it drives or measures, or the links it is
 * attached to, checked against the bodies, joints and frames of a {@link ModelBuilder} when it builds (the
 * device's own numbers are {@link DeviceChecks}' rules).
 */
final class DeviceAttachments {
    private DeviceAttachments() {
    }

    /**
     * Adds an error to {@code errors} for each way the device's joint or link does not match the model being
     * built: a joint device's joint must be a movable single-coordinate joint whose coordinates are the q and v
     * indices the device gives; a link device's link must be a link or frame that moves with the body it gives
     * (−1: the root); a spring's two points must move with different bodies.
     */
    static void check(ModelBuilder model, DeviceSpec d, SourceLocation at, List<Diagnostic> errors) {
        String label = DeviceChecks.elementName(d) + " '" + d.name() + "'";
        if (d instanceof ServoSpec s) {
            checkJoint(model, errors, at, label, s.joint(), s.qIndex(), s.vIndex());
        } else if (d instanceof DcMotorSpec m) {
            checkJoint(model, errors, at, label, m.joint(), m.qIndex(), m.vIndex());
        } else if (d instanceof TorqueSourceSpec t) {
            int body = model.bodyIndexOfJoint(t.joint());
            checkJoint(model, errors, at, label, t.joint(), body < 0 ? -1 : model.qIndexOfBody(body),
                    t.vIndex());
        } else if (d instanceof EncoderSpec e) {
            checkJoint(model, errors, at, label, e.joint(), e.qIndex(), e.vIndex());
        } else if (d instanceof ImuSpec i) {
            checkLink(model, errors, at, label, i.link(), i.body());
        } else if (d instanceof SpringDamperSpec s) {
            checkLink(model, errors, at, label, s.link1(), s.body1());
            checkLink(model, errors, at, label, s.link2(), s.body2());
            if (s.body1() == s.body2()) {
                errors.add(Diagnostic.error(at, label + ": both points move with the same body ('" + s.link1()
                        + "' and '" + s.link2() + "'), so the spring exerts no force"));
            }
        }
    }

    private static void checkJoint(ModelBuilder model, List<Diagnostic> errors, SourceLocation at, String label,
            String joint, int qIndex, int vIndex) {
        int body = model.bodyIndexOfJoint(joint);
        if (body < 0) {
            errors.add(Diagnostic.error(at, label + ": joint '" + joint + "' is not a movable joint of the model"));
            return;
        }
        JointType type = model.jointType(body);
        if (!type.isSingleDof()) {
            errors.add(Diagnostic.error(at, label + ": joint '" + joint + "' is " + type.urdfName()
                    + "; the device needs a single-coordinate joint (revolute, continuous or prismatic)"));
        } else if (qIndex != model.qIndexOfBody(body) || vIndex != model.vIndexOfBody(body)) {
            errors.add(Diagnostic.error(at, label + ": q index " + qIndex + " and v index " + vIndex
                    + " are not those of joint '" + joint + "' (" + model.qIndexOfBody(body) + ", " + model.vIndexOfBody(body)
                    + ")"));
        }
    }

    private static void checkLink(ModelBuilder model, List<Diagnostic> errors, SourceLocation at, String label,
            String link, int body) {
        Frame f = model.frame(link);
        if (f == null) {
            errors.add(Diagnostic.error(at, label + ": link '" + link + "' is not a link or frame of the model"));
        } else if (f.bodyIndex() != body) {
            errors.add(Diagnostic.error(at, label + ": link '" + link + "' moves with body " + f.bodyIndex()
                    + ", not " + body));
        }
    }

}
