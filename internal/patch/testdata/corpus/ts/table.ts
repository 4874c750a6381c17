// Test input for the patch corpus: generated-style TypeScript, with the
// repetition and blank lines code generators leave.

import * as flatbuffers from 'flatbuffers';

import { Vec3, Vec3T } from './vec3.js';


export class Monster implements flatbuffers.IUnpackableObject<MonsterT> {
  bb: flatbuffers.ByteBuffer|null = null;
  bb_pos = 0;
  __init(i:number, bb:flatbuffers.ByteBuffer):Monster {
  this.bb_pos = i;
  this.bb = bb;
  return this;
}

static getRootAsMonster(bb:flatbuffers.ByteBuffer, obj?:Monster):Monster {
  return (obj || new Monster()).__init(bb.readInt32(bb.position()) + bb.position(), bb);
}

pos(obj?:Vec3):Vec3|null {
  const offset = this.bb!.__offset(this.bb_pos, 4);
  return offset ? (obj || new Vec3()).__init(this.bb_pos + offset, this.bb!) : null;
}

mana():number {
  const offset = this.bb!.__offset(this.bb_pos, 6);
  return offset ? this.bb!.readInt16(this.bb_pos + offset) : 150;
}

hp():number {
  const offset = this.bb!.__offset(this.bb_pos, 8);
  return offset ? this.bb!.readInt16(this.bb_pos + offset) : 100;
}

static startMonster(builder:flatbuffers.Builder) {
  builder.startObject(3);
}

static addPos(builder:flatbuffers.Builder, posOffset:flatbuffers.Offset) {
  builder.addFieldStruct(0, posOffset, 0);
}

static addMana(builder:flatbuffers.Builder, mana:number) {
  builder.addFieldInt16(1, mana, 150);
}

static addHp(builder:flatbuffers.Builder, hp:number) {
  builder.addFieldInt16(2, hp, 100);
}

static endMonster(builder:flatbuffers.Builder):flatbuffers.Offset {
  const offset = builder.endObject();
  return offset;
}


unpack(): MonsterT {
  return new MonsterT(
    (this.pos() !== null ? this.pos()!.unpack() : null),
    this.mana(),
    this.hp()
  );
}


unpackTo(_o: MonsterT): void {
  _o.pos = (this.pos() !== null ? this.pos()!.unpack() : null);
  _o.mana = this.mana();
  _o.hp = this.hp();
}
}

export class MonsterT implements flatbuffers.IGeneratedObject {
constructor(
  public pos: Vec3T|null = null,
  public mana: number = 150,
  public hp: number = 100
){}


pack(builder:flatbuffers.Builder): flatbuffers.Offset {
  Monster.startMonster(builder);
  Monster.addPos(builder, (this.pos !== null ? this.pos!.pack(builder) : 0));
  Monster.addMana(builder, this.mana);
  Monster.addHp(builder, this.hp);

  return Monster.endMonster(builder);
}
}
